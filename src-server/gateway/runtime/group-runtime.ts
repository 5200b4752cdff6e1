import {
  buildEnvironmentScope,
  shapeOf,
  type EnvironmentScope,
} from '../../core/passthrough/environment-scope.js';
import { openEntry } from '../../core/passthrough/sealed-headers.js';
import type { EnvVariableShape } from '../../core/template/index.js';
import type {
  AgentGroupRecord,
  ConfigData,
  PassthroughRecord,
  PolicyRecord,
} from '../../core/model/config-model.js';
import type { SecretBox } from '../../core/config-store/secret-box.js';
import { ApiKeyIndex, type ApiKeyVerifier } from '../policies/api-key-index.js';
import { PolicyTable } from '../policies/policy-table.js';
import { buildApiRoute } from './api-route.js';
import { apiRouteStamp, type ApiRouteCache } from './api-route-cache.js';
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
  /** The stamps of its API routes (see api-route-cache.ts). */
  routeStamps: readonly string[];
  /** Query names the group's API-key policies read keys from (lower-case): masked in monitoring records. */
  credentialQueryNames: ReadonlySet<string>;
}

export interface RuntimeBuildDeps {
  secretBox: SecretBox;
  compiler: EntryCompiler;
  routes: ApiRouteCache;
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
 * runtime and no configuration event is recorded. APIs and passthroughs count by their stamps (revision and
 * update time), so a write costs the same whatever the size of the imported APIs.
 */
export function runtimeFingerprint(data: Readonly<ConfigData>, group: AgentGroupRecord): string {
  const shapesKey = shapesKeyOf(data);
  const apis: string[] = [];
  for (const api of data.apis) {
    if (!api.agentGroupIds.includes(group.id)) continue;
    apis.push(apiRouteStamp(api, passthroughOf(data, api.id), ''));
  }
  return JSON.stringify([
    group.name,
    group.environmentId,
    apis,
    shapesKey,
    data.policies.filter((policy) => policy.agentGroupId === group.id),
    data.apiKeys.filter((key) => key.environmentId === group.environmentId),
    data.environmentVariables.map((variable) => [variable.name, variable.values[group.environmentId]]),
  ]);
}

function shapesKeyOf(data: Readonly<ConfigData>): string {
  const shapes: Record<string, EnvVariableShape> = {};
  for (const variable of data.environmentVariables) shapes[variable.name] = shapeOf(variable);
  return JSON.stringify(shapes);
}

function passthroughOf(data: Readonly<ConfigData>, apiId: string): PassthroughRecord | undefined {
  return data.passthroughs.find((candidate) => candidate.apiId === apiId);
}

export function buildGroupRuntime(
  data: Readonly<ConfigData>,
  group: AgentGroupRecord,
  revision: number,
  deps: RuntimeBuildDeps,
): GroupRuntime {
  const shapes: Record<string, EnvVariableShape> = {};
  for (const variable of data.environmentVariables) shapes[variable.name] = shapeOf(variable);
  const shapesKey = shapesKeyOf(data);
  const apis: ApiRoute[] = [];
  const routeStamps: string[] = [];
  const summary: ConfigurationSummary = { revision, apis: [], operations: 0, invalidEntries: [] };
  for (const api of data.apis) {
    if (!api.agentGroupIds.includes(group.id)) continue;
    const passthrough = passthroughOf(data, api.id);
    const stamp = apiRouteStamp(api, passthrough, shapesKey);
    routeStamps.push(stamp);
    const route = deps.routes.route(stamp, () =>
      buildApiRoute(
        api,
        passthrough,
        shapes,
        (entry, context) =>
          deps.compiler.compile(entry, { ...context, env: { variables: shapes } }, shapesKey),
        (entry) => openEntry(entry, deps.secretBox),
      ),
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
  const policies = data.policies.filter((policy) => policy.agentGroupId === group.id);
  return {
    groupId: group.id,
    groupName: group.name,
    environmentId: group.environmentId,
    apis,
    env: buildEnvironmentScope(data, group.environmentId, deps.secretBox),
    policies: new PolicyTable(policies),
    apiKeys: new ApiKeyIndex(keys, deps.verifyApiKey),
    summary,
    routeStamps,
    credentialQueryNames: credentialQueryNamesOf(policies),
  };
}

function credentialQueryNamesOf(policies: readonly PolicyRecord[]): Set<string> {
  const names = new Set<string>();
  for (const policy of policies) {
    for (const grant of policy.grants) {
      if (grant.type === 'apiKey' && grant.queryName) names.add(grant.queryName.toLowerCase());
    }
  }
  return names;
}
