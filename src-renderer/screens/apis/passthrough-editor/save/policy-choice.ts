import type { ApiDefinition } from '../../../../api/types.js';
import type { Policy, PolicyGrant } from '../../../../api/types.js';

/** The optional access policy created with the save: everyone, or callers with an API key. */
export interface PolicyChoice {
  add: boolean;
  grant: 'public' | 'apiKey';
  headerName: string;
}

export const DEFAULT_API_KEY_HEADER = 'X-API-Key';

export function initialPolicyChoice(add: boolean): PolicyChoice {
  return { add, grant: 'apiKey', headerName: DEFAULT_API_KEY_HEADER };
}

export function grantOf(choice: PolicyChoice): PolicyGrant {
  return choice.grant === 'public'
    ? { type: 'public' }
    : { type: 'apiKey', headerName: choice.headerName.trim() || DEFAULT_API_KEY_HEADER };
}

/** Policies on one of the API's agent groups whose endpoints reach its base path. */
export function policiesCovering(api: ApiDefinition, policies: readonly Policy[]): Policy[] {
  const base = api.basePath.replace(/\/+$/, '') || '/';
  return policies.filter(
    (policy) =>
      api.agentGroupIds.includes(policy.agentGroupId) &&
      policy.endpoints.some((endpoint) => {
        const prefix = endpoint.pathPrefix.replace(/\/+$/, '') || '/';
        return (
          prefix === '/' || base === prefix || base.startsWith(`${prefix}/`) || prefix.startsWith(`${base}/`)
        );
      }),
  );
}
