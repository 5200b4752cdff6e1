import type { AgentGroup, Policy, PolicyGrant, PolicyThrottle } from '../../api/types.js';

export const GRANT_LABEL: Record<PolicyGrant['type'], string> = {
  public: 'Public',
  apiKey: 'API key',
  jwt: 'JWT',
};

/** One line per grant: who it admits and how they prove it. */
export function describeGrant(grant: PolicyGrant): string {
  switch (grant.type) {
    case 'public':
      return 'Public: everyone';
    case 'apiKey':
      return `API key in header ${grant.headerName}${grant.queryName ? ` or query ${grant.queryName}` : ''}`;
    case 'jwt': {
      const rules =
        grant.claims.length > 0
          ? `, ${grant.claims.length} claim rule${grant.claims.length > 1 ? 's' : ''}`
          : '';
      return `JWT from ${grant.issuer} for ${grant.audience}${rules}`;
    }
  }
}

export function describeThrottle(throttle: PolicyThrottle | undefined): string {
  return throttle ? `${throttle.limit.toLocaleString('en')} per ${throttle.per}` : 'No limit';
}

export function acceptsApiKeys(policy: Policy): boolean {
  return policy.grants.some((grant) => grant.type === 'apiKey');
}

export function agentGroupLabel(group: AgentGroup): string {
  return group.platform === 'legacy' ? `${group.name} (legacy: no passthrough)` : group.name;
}
