import { unprocessable, type HttpProblem } from '../../core/http/problem.js';
import type {
  AgentGroupRecord,
  ApiRecord,
  ConfigData,
  EnvironmentRecord,
} from '../../core/model/config-model.js';
import { VALUE_MEMBER } from '../../core/passthrough/environment-scope.js';
import { listNames, quoted } from './records.js';
import type { EnvReference } from '../../core/passthrough/passthrough-references.js';
import { ErrorCode } from '../../core/contracts/error-codes.js';

/**
 * Saving a passthrough deploys it to the agent groups of its API, so what a deployment needs is checked
 * whenever a passthrough, its API's agent groups, those groups or the referenced variables change.
 */

export const LEGACY_AGENT_MESSAGE = 'Passthrough is supported only on cross-platform agents.';

export interface MissingValue {
  reference: string;
  environment: Pick<EnvironmentRecord, 'id' | 'name'>;
  agentGroup: Pick<AgentGroupRecord, 'id' | 'name'>;
}

export function agentGroupsOf(data: Readonly<ConfigData>, api: ApiRecord): AgentGroupRecord[] {
  return api.agentGroupIds.flatMap((id) => data.agentGroups.find((group) => group.id === id) ?? []);
}

export function legacyAgentGroupsOf(data: Readonly<ConfigData>, api: ApiRecord): AgentGroupRecord[] {
  return agentGroupsOf(data, api).filter((group) => group.platform === 'legacy');
}

export function hasValueIn(
  data: Readonly<ConfigData>,
  reference: EnvReference,
  environmentId: string,
): boolean {
  const variable = data.environmentVariables.find((candidate) => candidate.name === reference.variable);
  const values = variable?.values[environmentId];
  return values !== undefined && Object.hasOwn(values, reference.member ?? VALUE_MEMBER);
}

/** The references without a value in the environment of one of the API's agent groups. */
export function missingValuesOf(
  data: Readonly<ConfigData>,
  api: ApiRecord,
  references: readonly EnvReference[],
): MissingValue[] {
  const missing: MissingValue[] = [];
  for (const group of agentGroupsOf(data, api)) {
    const environment = data.environments.find((candidate) => candidate.id === group.environmentId);
    const environmentRef = { id: group.environmentId, name: environment?.name ?? group.environmentId };
    for (const reference of references) {
      if (!hasValueIn(data, reference, group.environmentId)) {
        missing.push({
          reference: reference.text,
          environment: environmentRef,
          agentGroup: { id: group.id, name: group.name },
        });
      }
    }
  }
  return missing;
}

export function describeMissingValue(missing: MissingValue): string {
  return `${missing.reference} has no value in environment ${quoted(missing.environment.name)} (agent group ${quoted(missing.agentGroup.name)})`;
}

export function legacyAgentProblem(groups: readonly AgentGroupRecord[]): HttpProblem {
  return unprocessable(
    ErrorCode.GH_ERR_LEGACY_AGENT_GROUP,
    `${LEGACY_AGENT_MESSAGE} The API is assigned to the legacy agent group${groups.length > 1 ? 's' : ''} ${listNames(groups.map((group) => quoted(group.name)))}.`,
    { legacyAgentGroups: groups.map((group) => ({ id: group.id, name: group.name })) },
  );
}

export function missingValuesProblem(missing: readonly MissingValue[]): HttpProblem {
  return unprocessable(
    ErrorCode.GH_ERR_MISSING_VARIABLE_VALUES,
    `The passthrough can't be deployed: ${missing.slice(0, 10).map(describeMissingValue).join('; ')}.`,
    { missingValues: missing.map(toMissingValueDto) },
  );
}

export function toMissingValueDto(missing: MissingValue) {
  return {
    reference: missing.reference,
    environmentId: missing.environment.id,
    environmentName: missing.environment.name,
    agentGroupId: missing.agentGroup.id,
    agentGroupName: missing.agentGroup.name,
  };
}

/** Throws the 422 of the first failing deploy check of an API's passthrough. */
export function assertDeployable(
  data: Readonly<ConfigData>,
  api: ApiRecord,
  references: readonly EnvReference[],
): void {
  const legacy = legacyAgentGroupsOf(data, api);
  if (legacy.length > 0) throw legacyAgentProblem(legacy);
  const missing = missingValuesOf(data, api, references);
  if (missing.length > 0) throw missingValuesProblem(missing);
}
