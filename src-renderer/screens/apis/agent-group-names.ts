import type { AgentGroup } from '../../api/types.js';

/** The names of agent groups by id, in the API's order; an unknown id is shown as is. */
export function agentGroupNames(ids: readonly string[], agentGroups: readonly AgentGroup[]): string[] {
  return ids.map((id) => agentGroups.find((group) => group.id === id)?.name ?? id);
}
