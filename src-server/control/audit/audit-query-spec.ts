import { intParam, parseQuery, stringParam } from '../../core/http/query-params.js';
import { timeRangeQuery, toTimeRange } from '../../core/http/time-range-query.js';
import type { AuditFilter, AuditQuery } from '../../core/audit/audit-entry.js';
import type {
  AuditLogFilterParameters,
  AuditLogListParameters,
} from '../../core/contracts/query-parameters.js';
import type { QueryParamSpec, QuerySpecOf } from '../../core/http/query-params.js';
import { ALL_TENANTS, OWN_TENANT, TENANT_NAME_RULE, tenantName } from '../../core/audit/audit-tenant.js';

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
} satisfies QuerySpecOf<AuditLogFilterParameters>;

export const AUDIT_LIST_QUERY = {
  PageNumber: intParam({ description: 'Page number, 1-based.', min: 1, max: 2_147_483_647, defaultValue: 1 }),
  PageSize: intParam({
    description: `Results per page (maximum ${AUDIT_PAGE_SIZE_MAX}).`,
    min: 1,
    max: AUDIT_PAGE_SIZE_MAX,
    defaultValue: AUDIT_PAGE_SIZE_DEFAULT,
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
}): AuditFilter {
  return {
    ...toTimeRange(values),
    ...(values.tenant !== undefined ? { tenant: values.tenant } : {}),
    ...(values.actionName !== undefined ? { actionName: values.actionName } : {}),
    ...(values.userName !== undefined ? { userName: values.userName } : {}),
    ...(values.instance !== undefined ? { instance: values.instance } : {}),
  };
}

/** For the CLI: the same names and rules as the endpoint, from `--name value` options. */
export function auditFilterFromOptions(options: Record<string, string | undefined>): AuditFilter {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(options)) if (value !== undefined) search.set(name, value);
  return toAuditFilter(parseQuery(AUDIT_FILTER_QUERY, search.toString()));
}

export function toAuditQuery(values: ReturnType<typeof parseQuery<typeof AUDIT_LIST_QUERY>>): AuditQuery {
  return {
    ...toAuditFilter(values),
    pageNumber: values.PageNumber ?? 1,
    pageSize: values.PageSize ?? AUDIT_PAGE_SIZE_DEFAULT,
  };
}
