import type {
  AgentGroupRecord,
  ApiRecord,
  ConfigData,
  PassthroughRecord,
} from '../../core/model/config-model.js';

export interface EffectivePassthrough {
  api: ApiRecord;
  passthrough: PassthroughRecord;
  /** The cross-platform agent groups the API is assigned to: where it runs. */
  agentGroups: AgentGroupRecord[];
}

/**
 * The passthroughs that run, for the gateway: each saved configuration with its API and the cross-platform
 * agent groups it is deployed to (legacy groups run none; the management API refuses them anyway).
 */
export function effectivePassthroughs(data: Readonly<ConfigData>): EffectivePassthrough[] {
  const groups = new Map(data.agentGroups.map((group) => [group.id, group]));
  const apis = new Map(data.apis.map((api) => [api.id, api]));
  return data.passthroughs.flatMap((passthrough) => {
    const api = apis.get(passthrough.apiId);
    if (!api) return [];
    const agentGroups = api.agentGroupIds.flatMap((id) => {
      const group = groups.get(id);
      return group?.platform === 'cross-platform' ? [group] : [];
    });
    return agentGroups.length > 0 ? [{ api, passthrough, agentGroups }] : [];
  });
}
