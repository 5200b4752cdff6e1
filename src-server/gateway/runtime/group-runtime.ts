import {
  buildEnvironmentScope,
  shapeOf,
  type EnvironmentScope,
} from '../../core/passthrough/environment-scope.js';
import { openEntry } from '../../core/passthrough/sealed-headers.js';
import type { EnvVariableShape } from '../../core/template/index.js';
import type { AgentGroupRecord, ConfigData } from '../../core/model/config-model.js';
import type { SecretBox } from '../../core/config-store/secret-box.js';
import { ApiKeyIndex, type ApiKeyVerifier } from '../policies/api-key-index.js';
import { PolicyTable } from '../policies/policy-table.js';
import { buildApiRoute } from './api-route.js';
import type { EntryCompiler } from './entry-compiler.js';
import type { ApiRoute } from './route-table.js';

/** What `Agent.ConfigurationApplied` records: no templates, no values. */
export interface ConfigurationSummary {
  revision: number;
  apis: { id: string; name: string; basePath: string; revision: number; operations: string[] }[];
  operations: number;
  /** Entries that do not compile against the group's environment; their endpoints answer 503. */
  invalidEntries: { apiId: string; operation: string; errors: number; unreadable?: true }[];
}

/** Everything one agent group's listener needs to answer requests; immutable once built. */
export interface GroupRuntime {
  groupId: string;
  groupName: string;
  environmentId: string;
  /** Longest base path first. */
  apis: readonly ApiRoute[];
  env: EnvironmentScope;
  policies: PolicyTable;
  apiKeys: ApiKeyIndex;
  summary: ConfigurationSummary;
}

export interface RuntimeBuildDeps {
  secretBox: SecretBox;
  compiler: EntryCompiler;
  verifyApiKey: ApiKeyVerifier;
}

/**
 * The records one group's runtime is built from, by identity. The store shares every record a change leaves
 * alone, so when these are the same objects as last time nothing the group uses changed, and the runtime stays
 * without the cost of `runtimeFingerprint` (which writes out every operation of the group's APIs).
 */
export function runtimeInputs(data: Readonly<ConfigData>, group: AgentGroupRecord): readonly unknown[] {
  const apis = data.apis.filter((api) => api.agentGroupIds.includes(group.id));
  const apiIds = new Set(apis.map((api) => api.id));
  return [
    group.name,
    group.environmentId,
    ...apis,
    data.passthroughs.length,
    ...data.passthroughs.filter((passthrough) => apiIds.has(passthrough.apiId)),
    data.policies.length,
    ...data.policies.filter((policy) => policy.agentGroupId === group.id),
    data.apiKeys.length,
    ...data.apiKeys.filter((key) => key.environmentId === group.environmentId),
    ...data.environmentVariables,
  ];
}

export function sameInputs(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}

/**
 * The inputs of one group's runtime as text: when it is unchanged after a store change, the group keeps its
 * runtime and no configuration event is recorded.
 */
export function runtimeFingerprint(data: Readonly<ConfigData>, group: AgentGroupRecord): string {
  const apis = data.apis.filter((api) => api.agentGroupIds.includes(group.id));
  const apiIds = new Set(apis.map((api) => api.id));
  return JSON.stringify([
    group.name,
    group.environmentId,
    apis,
    data.passthroughs.filter((passthrough) => apiIds.has(passthrough.apiId)),
    data.policies.filter((policy) => policy.agentGroupId === group.id),
    data.apiKeys.filter((key) => key.environmentId === group.environmentId),
    data.environmentVariables.map((variable) => [
      variable.name,
      variable.kind,
      variable.type,
      variable.members,
      variable.values[group.environmentId],
    ]),
  ]);
}

export function buildGroupRuntime(
  data: Readonly<ConfigData>,
  group: AgentGroupRecord,
  revision: number,
  deps: RuntimeBuildDeps,
): GroupRuntime {
  const shapes: Record<string, EnvVariableShape> = {};
  for (const variable of data.environmentVariables) shapes[variable.name] = shapeOf(variable);
  const shapesKey = JSON.stringify(shapes);
  const apis: ApiRoute[] = [];
  const summary: ConfigurationSummary = { revision, apis: [], operations: 0, invalidEntries: [] };
  for (const api of data.apis) {
    if (!api.agentGroupIds.includes(group.id)) continue;
    const passthrough = data.passthroughs.find((candidate) => candidate.apiId === api.id);
    const route = buildApiRoute(
      api,
      passthrough,
      shapes,
      (entry, context) => deps.compiler.compile(entry, { ...context, env: { variables: shapes } }, shapesKey),
      (entry) => openEntry(entry, deps.secretBox),
    );
    apis.push(route.api);
    summary.apis.push({
      id: api.id,
      name: api.name,
      basePath: api.basePath,
      revision: passthrough?.revision ?? 0,
      operations: route.operations,
    });
    summary.operations += route.operations.length;
    for (const invalid of route.invalid) summary.invalidEntries.push({ apiId: api.id, ...invalid });
  }
  apis.sort(
    (a, b) =>
      b.baseSegments.length - a.baseSegments.length ||
      a.name.localeCompare(b.name) ||
      a.id.localeCompare(b.id),
  );
  const keys = data.apiKeys.filter((key) => key.environmentId === group.environmentId);
  return {
    groupId: group.id,
    groupName: group.name,
    environmentId: group.environmentId,
    apis,
    env: buildEnvironmentScope(data, group.environmentId, deps.secretBox),
    policies: new PolicyTable(data.policies.filter((policy) => policy.agentGroupId === group.id)),
    apiKeys: new ApiKeyIndex(keys, deps.verifyApiKey),
    summary,
  };
}
