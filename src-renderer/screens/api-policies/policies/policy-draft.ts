import type {
  CreatePolicy,
  ModifyPolicy,
  Policy,
  PolicyEndpoint,
  PolicyGrant,
  PolicyMethod,
  ThrottlePeriod,
} from '../../../api/types.js';

export const DEFAULT_API_KEY_HEADER = 'X-API-Key';

export interface EndpointRow {
  key: number;
  method: PolicyMethod;
  pathPrefix: string;
}

export interface ClaimRow {
  key: number;
  claim: string;
  /** Accepted values, comma-separated as typed. */
  values: string;
}

export type GrantDraft =
  | { key: number; type: 'public' }
  | { key: number; type: 'apiKey'; headerName: string; queryName: string }
  | { key: number; type: 'jwt'; issuer: string; audience: string; claims: ClaimRow[] };

export interface PolicyDraft {
  name: string;
  agentGroupId: string;
  endpoints: EndpointRow[];
  grants: GrantDraft[];
  throttled: boolean;
  limit: string;
  per: ThrottlePeriod;
}

/** Field path (`name`, `endpoints.3.pathPrefix`, `grants.2.issuer`, `grants.2.claims.5.values`) → problem. */
export type PolicyProblems = Record<string, string>;

let nextKey = 1;
const key = () => nextKey++;

export function newEndpointRow(pathPrefix = '/', method: PolicyMethod = 'ALL'): EndpointRow {
  return { key: key(), method, pathPrefix };
}

export function newClaimRow(claim = '', values = ''): ClaimRow {
  return { key: key(), claim, values };
}

export function newGrant(type: PolicyGrant['type']): GrantDraft {
  if (type === 'public') return { key: key(), type };
  if (type === 'apiKey') return { key: key(), type, headerName: DEFAULT_API_KEY_HEADER, queryName: '' };
  return { key: key(), type, issuer: '', audience: '', claims: [] };
}

export function emptyPolicyDraft(agentGroupId: string): PolicyDraft {
  return {
    name: '',
    agentGroupId,
    endpoints: [newEndpointRow()],
    grants: [newGrant('apiKey')],
    throttled: false,
    limit: '',
    per: 'minute',
  };
}

function grantDraftOf(grant: PolicyGrant): GrantDraft {
  switch (grant.type) {
    case 'public':
      return { key: key(), type: 'public' };
    case 'apiKey':
      return { key: key(), type: 'apiKey', headerName: grant.headerName, queryName: grant.queryName ?? '' };
    case 'jwt':
      return {
        key: key(),
        type: 'jwt',
        issuer: grant.issuer,
        audience: grant.audience,
        claims: grant.claims.map((rule) => newClaimRow(rule.claim, rule.values.join(', '))),
      };
  }
}

export function policyDraftOf(policy: Policy): PolicyDraft {
  return {
    name: policy.name,
    agentGroupId: policy.agentGroupId,
    endpoints: policy.endpoints.map((endpoint) => newEndpointRow(endpoint.pathPrefix, endpoint.method)),
    grants: policy.grants.map(grantDraftOf),
    throttled: policy.throttle !== undefined,
    limit: policy.throttle ? String(policy.throttle.limit) : '',
    per: policy.throttle?.per ?? 'minute',
  };
}

const HEADER_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const QUERY_NAME = /^[A-Za-z0-9._~-]+$/;
const PATH_PREFIX = /^\/[^?#\s]*$/;
const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

function issuerProblem(issuer: string): string | undefined {
  if (!issuer) return 'Enter the issuer URL.';
  let url: URL;
  try {
    url = new URL(issuer);
  } catch (error) {
    if (error instanceof TypeError) return 'Enter an absolute URL such as https://login.example.com/tenant.';
    throw error;
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.test(url.hostname)))
    return 'Use https (http only on a loopback address).';
  if (url.username || url.password || url.search || url.hash)
    return 'No credentials, query or fragment in the issuer URL.';
  return undefined;
}

function splitValues(text: string): string[] {
  return text
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);
}

function grantProblems(grant: GrantDraft, index: number, problems: PolicyProblems): void {
  const at = `grants.${index}`;
  if (grant.type === 'apiKey') {
    if (!HEADER_TOKEN.test(grant.headerName.trim()))
      problems[`${at}.headerName`] = 'Enter a header name (letters, digits, -).';
    if (grant.queryName.trim() && !QUERY_NAME.test(grant.queryName.trim()))
      problems[`${at}.queryName`] = 'Use letters, digits and ._~- only.';
  }
  if (grant.type === 'jwt') {
    const issuer = issuerProblem(grant.issuer.trim());
    if (issuer) problems[`${at}.issuer`] = issuer;
    if (!grant.audience.trim()) problems[`${at}.audience`] = 'Enter the audience the tokens must carry.';
    grant.claims.forEach((rule, ruleIndex) => {
      if (!rule.claim.trim()) problems[`${at}.claims.${ruleIndex}.claim`] = 'Enter the claim name.';
      if (splitValues(rule.values).length === 0)
        problems[`${at}.claims.${ruleIndex}.values`] = 'List at least one accepted value.';
    });
  }
}

export function policyProblemsOf(draft: PolicyDraft): PolicyProblems {
  const problems: PolicyProblems = {};
  if (!draft.name.trim()) problems.name = 'Enter a name.';
  if (!draft.agentGroupId) problems.agentGroupId = 'Choose an agent group.';
  if (draft.endpoints.length === 0) problems.endpoints = 'List at least one endpoint.';
  const seen = new Set<string>();
  draft.endpoints.forEach((row, index) => {
    const prefix = row.pathPrefix.trim();
    if (!PATH_PREFIX.test(prefix))
      problems[`endpoints.${index}.pathPrefix`] = 'Start with / ; no query, fragment or spaces.';
    else if (seen.has(`${row.method} ${prefix}`)) problems[`endpoints.${index}.pathPrefix`] = 'Listed twice.';
    seen.add(`${row.method} ${prefix}`);
  });
  if (draft.grants.length === 0) problems.grants = 'Add a grant: a policy grants access to someone.';
  else if (draft.grants.length > 1 && draft.grants.some((grant) => grant.type === 'public'))
    problems.grants = 'A public grant admits everyone; it cannot be combined with other grants.';
  draft.grants.forEach((grant, index) => grantProblems(grant, index, problems));
  if (draft.throttled) {
    const limit = Number(draft.limit);
    if (!/^\d+$/.test(draft.limit.trim()) || limit < 1 || limit > 1_000_000_000)
      problems.limit = 'Enter a whole number from 1 to 1,000,000,000.';
  }
  return problems;
}

function grantOf(grant: GrantDraft): PolicyGrant {
  switch (grant.type) {
    case 'public':
      return { type: 'public' };
    case 'apiKey': {
      const queryName = grant.queryName.trim();
      return { type: 'apiKey', headerName: grant.headerName.trim(), ...(queryName ? { queryName } : {}) };
    }
    case 'jwt':
      return {
        type: 'jwt',
        issuer: grant.issuer.trim(),
        audience: grant.audience.trim(),
        claims: grant.claims.map((rule) => ({ claim: rule.claim.trim(), values: splitValues(rule.values) })),
      };
  }
}

export function toCreatePolicy(draft: PolicyDraft): CreatePolicy {
  const endpoints: PolicyEndpoint[] = draft.endpoints.map((row) => ({
    method: row.method,
    pathPrefix: row.pathPrefix.trim(),
  }));
  return {
    name: draft.name.trim(),
    agentGroupId: draft.agentGroupId,
    endpoints,
    grants: draft.grants.map(grantOf),
    ...(draft.throttled ? { throttle: { limit: Number(draft.limit), per: draft.per } } : {}),
  };
}

/** A full PATCH: every field of the form, and `throttle: null` when the limit was turned off. */
export function toModifyPolicy(draft: PolicyDraft): ModifyPolicy {
  const created = toCreatePolicy(draft);
  return { ...created, throttle: created.throttle ?? null };
}
