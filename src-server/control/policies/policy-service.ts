import { randomUUID } from 'node:crypto';
import { conflict, validationProblem } from '../../core/http/problem.js';
import type { ManagementDeps } from '../common/management-deps.js';
import { byName, listNames, nameTaken, quoted, requireRecord, sameName } from '../common/records.js';
import type { ConfigData, PolicyRecord } from '../../core/model/config-model.js';
import { normalizeBasePath } from '../../core/paths/base-path.js';
import type { CreatePolicyInput, ModifyPolicyInput } from '../../core/contracts/policy-schemas.js';
import { ErrorCode } from '../../core/contracts/error-codes.js';

/** API policies: which endpoints of an agent group they open, to whom, how often. */
export class PolicyService {
  constructor(private readonly deps: ManagementDeps) {}

  list(filter: { agentGroupId?: string } = {}): PolicyRecord[] {
    return this.deps.store.data.policies
      .filter((policy) => filter.agentGroupId === undefined || policy.agentGroupId === filter.agentGroupId)
      .sort(byName);
  }

  get(id: string): PolicyRecord {
    return requireRecord(this.deps.store.data.policies, id, 'policy');
  }

  create(input: CreatePolicyInput): Promise<PolicyRecord> {
    return this.deps.store.update((data) => addPolicy(data, input, this.deps.now()));
  }

  modify(id: string, input: ModifyPolicyInput): Promise<PolicyRecord> {
    return this.deps.store.update((data) => {
      const policy = requireRecord(data.policies, id, 'policy');
      const changed: PolicyRecord = {
        ...policy,
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.agentGroupId !== undefined ? { agentGroupId: input.agentGroupId } : {}),
        ...(input.endpoints !== undefined ? { endpoints: normalizeEndpoints(input.endpoints) } : {}),
        ...(input.grants !== undefined ? { grants: input.grants } : {}),
        ...(input.throttle ? { throttle: input.throttle } : {}),
        updatedAt: this.deps.now().toISOString(),
      };
      if (input.throttle === null) delete changed.throttle;
      assertConsistent(data, changed);
      if (changed.agentGroupId !== policy.agentGroupId) assertKeysStayInEnvironment(data, changed);
      Object.assign(policy, changed);
      if (!changed.throttle) delete policy.throttle;
      return policy;
    });
  }

  /** Refused while API keys are limited to it: dropping it would widen what they open. */
  delete(id: string): Promise<PolicyRecord> {
    return this.deps.store.update((data) => {
      const policy = requireRecord(data.policies, id, 'policy');
      const keys = data.apiKeys.filter((key) => key.policyIds.includes(id));
      if (keys.length > 0) {
        throw conflict(
          ErrorCode.GH_ERR_IN_USE,
          `The policy ${quoted(policy.name)} is the scope of the API key${keys.length > 1 ? 's' : ''} ${listNames(keys.map((key) => quoted(key.name)))}. Revoke them first.`,
          { apiKeys: keys.map((key) => ({ id: key.id, name: key.name })) },
        );
      }
      data.policies = data.policies.filter((candidate) => candidate.id !== id);
      return policy;
    });
  }
}

/** Adds a policy inside a store update (also used when a passthrough is created with its policy). */
export function addPolicy(data: ConfigData, input: CreatePolicyInput, now: Date): PolicyRecord {
  const at = now.toISOString();
  const policy: PolicyRecord = {
    id: randomUUID(),
    name: input.name,
    agentGroupId: input.agentGroupId,
    endpoints: normalizeEndpoints(input.endpoints),
    grants: input.grants,
    ...(input.throttle ? { throttle: input.throttle } : {}),
    createdAt: at,
    updatedAt: at,
  };
  assertConsistent(data, policy);
  data.policies.push(policy);
  return policy;
}

function normalizeEndpoints(endpoints: CreatePolicyInput['endpoints']): PolicyRecord['endpoints'] {
  return endpoints.map((endpoint) => ({
    method: endpoint.method,
    pathPrefix: normalizeBasePath(endpoint.pathPrefix),
  }));
}

function assertConsistent(data: ConfigData, policy: PolicyRecord): void {
  if (!data.agentGroups.some((group) => group.id === policy.agentGroupId)) {
    throw validationProblem({ agentGroupId: [`No agent group has id ${policy.agentGroupId}.`] });
  }
  const seen = new Set<string>();
  policy.endpoints.forEach((endpoint, index) => {
    const key = `${endpoint.method} ${endpoint.pathPrefix}`;
    if (seen.has(key)) throw validationProblem({ [`endpoints[${index}]`]: [`${key} is listed twice.`] });
    seen.add(key);
  });
  const siblings = data.policies.filter(
    (other) => other.id !== policy.id && other.agentGroupId === policy.agentGroupId,
  );
  const namesake = siblings.find((other) => sameName(other.name, policy.name));
  if (namesake) {
    throw nameTaken(
      `This agent group already has a policy named ${quoted(namesake.name)}. Choose another name.`,
      namesake.id,
    );
  }
  for (const endpoint of policy.endpoints) {
    const rival = siblings.find((other) =>
      other.endpoints.some(
        (theirs) => theirs.method === endpoint.method && theirs.pathPrefix === endpoint.pathPrefix,
      ),
    );
    if (rival) {
      throw conflict(
        ErrorCode.GH_ERR_POLICY_OVERLAP,
        `The policy ${quoted(rival.name)} already covers ${endpoint.method} ${endpoint.pathPrefix} on this agent group; change that policy instead.`,
        { conflictingId: rival.id },
      );
    }
  }
}

function assertKeysStayInEnvironment(data: ConfigData, policy: PolicyRecord): void {
  const group = data.agentGroups.find((candidate) => candidate.id === policy.agentGroupId);
  const strangers = data.apiKeys.filter(
    (key) => key.policyIds.includes(policy.id) && key.environmentId !== group?.environmentId,
  );
  if (strangers.length > 0) {
    throw conflict(
      ErrorCode.GH_ERR_IN_USE,
      `The API key${strangers.length > 1 ? 's' : ''} ${listNames(strangers.map((key) => quoted(key.name)))} limited to this policy belong to another environment than the new agent group.`,
      { apiKeys: strangers.map((key) => ({ id: key.id, name: key.name })) },
    );
  }
}
