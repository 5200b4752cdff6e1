import type { ApiSummary } from '../../api/types.js';
import type { AgentGroup } from '../../api/types.js';

/**
 * `deployed`: a saved Passthrough configuration that runs on at least one cross-platform agent group of the
 * API (saving deploys it). `configured`: saved, but none of the API's agent groups can run it (legacy only).
 */
export type PassthroughStatus = 'none' | 'configured' | 'deployed';

export const PASSTHROUGH_STATUS_LABEL: Record<PassthroughStatus, string> = {
  none: 'None',
  configured: 'Configured',
  deployed: 'Deployed',
};

export const PASSTHROUGH_STATUS_HINT: Record<PassthroughStatus, string> = {
  none: 'No Passthrough configuration: requests to this API are not forwarded.',
  configured: 'Configured, but no cross-platform agent group of this API runs it.',
  deployed: 'Requests are forwarded by the cross-platform agent groups of this API.',
};

export function passthroughStatusOf(
  api: Pick<ApiSummary, 'passthroughId' | 'agentGroupIds'>,
  agentGroups: readonly AgentGroup[],
): PassthroughStatus {
  if (!api.passthroughId) return 'none';
  const runs = api.agentGroupIds.some(
    (id) => agentGroups.find((group) => group.id === id)?.platform === 'cross-platform',
  );
  return runs ? 'deployed' : 'configured';
}
