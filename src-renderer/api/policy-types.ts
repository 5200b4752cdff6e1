/**
 * Payloads of the API policy and API key endpoints, as the console uses them (schema names of the OpenAPI
 * document at `/swagger/v1/swagger.json` in the comments).
 */

export const POLICY_METHODS = [
  'ALL',
  'GET',
  'PUT',
  'POST',
  'DELETE',
  'OPTIONS',
  'HEAD',
  'PATCH',
  'TRACE',
] as const;
export type PolicyMethod = (typeof POLICY_METHODS)[number];

export interface PolicyEndpoint {
  method: PolicyMethod;
  pathPrefix: string;
}

export interface JwtClaimRule {
  claim: string;
  values: string[];
}

export type PolicyGrant =
  | { type: 'public' }
  | { type: 'apiKey'; headerName: string; queryName?: string }
  | { type: 'jwt'; issuer: string; audience: string; claims: JwtClaimRule[] };
export type PolicyGrantType = PolicyGrant['type'];

export type ThrottlePeriod = 'minute' | 'hour' | 'day';
export interface PolicyThrottle {
  limit: number;
  per: ThrottlePeriod;
}

/** `Policy`. */
export interface Policy {
  id: string;
  name: string;
  agentGroupId: string;
  endpoints: PolicyEndpoint[];
  grants: PolicyGrant[];
  throttle?: PolicyThrottle;
  createdAt: string;
  updatedAt: string;
}

/** `CreatePolicy`. */
export interface CreatePolicy {
  name: string;
  agentGroupId: string;
  endpoints: PolicyEndpoint[];
  grants: PolicyGrant[];
  throttle?: PolicyThrottle;
}

/** `ModifyPolicy`; `throttle: null` removes it. */
export interface ModifyPolicy {
  name?: string;
  agentGroupId?: string;
  endpoints?: PolicyEndpoint[];
  grants?: PolicyGrant[];
  throttle?: PolicyThrottle | null;
}

/** `ApiKey` — never the key itself. */
export interface ApiKey {
  id: string;
  name: string;
  environmentId: string;
  /** The first characters of the key, to recognise it. */
  prefix: string;
  /** Empty: every apiKey policy of its environment. */
  policyIds: string[];
  createdAt: string;
  expiresAt?: string;
  expired: boolean;
}

/** `CreateApiKey`. */
export interface CreateApiKey {
  name: string;
  environmentId: string;
  policyIds?: string[];
  /** ISO 8601 UTC, in the future. */
  expiresAt?: string;
}

/** `CreatedApiKey` — the key is in this response only. */
export interface CreatedApiKey {
  apiKey: ApiKey;
  key: string;
}
