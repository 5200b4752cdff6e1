import { intParam, parseQuery, stringParam } from '../../core/http/query-params.js';
import { timeRangeQuery, toTimeRange } from '../../core/http/time-range-query.js';
import type { AuditFilter } from '../../core/audit/audit-entry.js';
import type {
  AuditLogFilterParameters,
  AuditLogListParameters,
} from '../../core/contracts/query-parameters.js';
import type { QueryParamSpec, QuerySpecOf, QueryValues } from '../../core/http/query-params.js';
import { ALL_TENANTS, OWN_TENANT, TENANT_NAME_RULE, tenantName } from '../../core/audit/audit-tenant.js';
import type { AuditResource } from '../../core/audit/audit-entry.js';
import { MAX_SEARCH_WORDS, searchWords } from '../../core/audit/search-terms.js';

export const AUDIT_PAGE_SIZE_DEFAULT = 30;
export const AUDIT_PAGE_SIZE_MAX = 200;

const ACTION_NAME = /^[^\s.]+\.\S+$/;

/** A tenant's name (case-insensitive) or `*`. */
export const tenantParam: QueryParamSpec<string> = {
  description: `The tenant whose trail to read: \`${OWN_TENANT}\` (Gatehouse's own, the default), an imported or synced tenant's name, or \`${ALL_TENANTS}\` for every tenant (entries of other tenants carry \`tenant\`).`,
  schema: { type: 'string', maxLength: 64 },
  parse(raw) {
    if (raw === ALL_TENANTS) return { ok: true, value: ALL_TENANTS };
    const name = tenantName(raw);
    return name
      ? { ok: true, value: name }
      : { ok: false, message: `The value is not a tenant: ${TENANT_NAME_RULE}.` };
  },
};

/** `{type}:{id}`: the type is a name without `:` (Api, Passthrough, EnvironmentVariable…), the id anything after. */
export const resourceParam: QueryParamSpec<Pick<AuditResource, 'type' | 'id'>> = {
  description:
    'Only entries that name this resource among their `resources`, written `{type}:{id}` (e.g. `Api:5d0c6f8e-…`): everything that touched it. Type and id match exactly.',
  schema: { type: 'string', maxLength: 600, pattern: '^[^:\\s]+:.+$' },
  parse(raw) {
    const colon = raw.indexOf(':');
    if (raw.length > 600) return { ok: false, message: 'The value must be at most 600 characters.' };
    if (colon < 1 || colon === raw.length - 1 || /\s/.test(raw.slice(0, colon)))
      return { ok: false, message: 'Write the resource as {type}:{id}, e.g. Api:5d0c6f8e.' };
    return { ok: true, value: { type: raw.slice(0, colon), id: raw.slice(colon + 1) } };
  },
};

/** Full-text search of the parameters' values. */
export const searchParam: QueryParamSpec<string> = {
  description: `Only entries whose parameters hold every word of this text (words are runs of letters and digits, matched case-insensitively, each as the start of a word: \`order sync\` finds \`Order-Sync-7\`). Keys and masked secrets are not searched. At most ${MAX_SEARCH_WORDS} words.`,
  schema: { type: 'string', maxLength: 500 },
  parse(raw) {
    if (raw.length > 500) return { ok: false, message: 'The value must be at most 500 characters.' };
    const words = searchWords(raw);
    if (words.length === 0) return { ok: false, message: 'Search for at least one letter or digit.' };
    if (words.length > MAX_SEARCH_WORDS)
      return { ok: false, message: `Search for at most ${MAX_SEARCH_WORDS} words.` };
    return { ok: true, value: raw };
  },
};

/** Filters shared by the list endpoint, the export endpoint and `gatehouse audit export`. */
export const AUDIT_FILTER_QUERY = {
  tenant: tenantParam,
  ...timeRangeQuery(),
  actionName: stringParam({
    description:
      'Only entries of this action, `{Controller}.{Action}` such as `TenantSettings.Modify`; exact match, case-insensitive.',
    maxLength: 200,
    pattern: ACTION_NAME,
  }),
  userName: stringParam({
    description: 'Only entries of this user; exact match, case-insensitive.',
    maxLength: 256,
  }),
  instance: stringParam({
    description:
      'Only entries recorded by this Gatehouse instance (`Instance:Id`, see `GET /api/v1/instances`); exact match.',
    maxLength: 200,
  }),
  resource: resourceParam,
  search: searchParam,
} satisfies QuerySpecOf<AuditLogFilterParameters>;

export const AUDIT_LIST_QUERY = {
  // Defaults documented, applied by the list (`audit-paging.ts`): a continuation token must tell a given PageNumber
  // from none.
  PageNumber: {
    ...intParam({
      description: 'Page number, 1-based. Not with `continuationToken`.',
      min: 1,
      max: 2_147_483_647,
      defaultValue: 1,
    }),
    defaultValue: undefined,
  },
  PageSize: {
    ...intParam({
      description: `Results per page (maximum ${AUDIT_PAGE_SIZE_MAX}). With \`continuationToken\`, the page size of the walk, or none.`,
      min: 1,
      max: AUDIT_PAGE_SIZE_MAX,
      defaultValue: AUDIT_PAGE_SIZE_DEFAULT,
    }),
    defaultValue: undefined,
  },
  continuationToken: stringParam({
    description:
      'The `continuationToken` of the previous page: the page after it, which neither repeats nor skips entries while new ones arrive. Give the same filters, and no `PageNumber`.',
    maxLength: 512,
  }),
  ...AUDIT_FILTER_QUERY,
} satisfies QuerySpecOf<AuditLogListParameters>;

export function toAuditFilter(values: {
  tenant?: string;
  startDateTimeUtc?: number;
  endDateTimeUtc?: number;
  actionName?: string;
  userName?: string;
  instance?: string;
  resource?: Pick<AuditResource, 'type' | 'id'>;
  search?: string;
}): AuditFilter {
  return {
    ...toTimeRange(values),
    ...(values.tenant !== undefined ? { tenant: values.tenant } : {}),
    ...(values.actionName !== undefined ? { actionName: values.actionName } : {}),
    ...(values.userName !== undefined ? { userName: values.userName } : {}),
    ...(values.instance !== undefined ? { instance: values.instance } : {}),
    ...(values.resource !== undefined ? { resource: values.resource } : {}),
    ...(values.search !== undefined ? { search: values.search } : {}),
  };
}

/** For the CLI: the same names and rules as the endpoint, from `--name value` options. */
export function auditFilterFromOptions(options: Record<string, string | undefined>): AuditFilter {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(options)) if (value !== undefined) search.set(name, value);
  return toAuditFilter(parseQuery(AUDIT_FILTER_QUERY, search.toString()));
}

export type AuditQueryValues = QueryValues<typeof AUDIT_LIST_QUERY>;
