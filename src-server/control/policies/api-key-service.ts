import { randomUUID } from 'node:crypto';
import { validationProblem } from '../../core/http/problem.js';
import { parseUtcDateTime } from '../../core/http/query-params.js';
import type { ManagementDeps } from '../common/management-deps.js';
import { byName, nameTaken, quoted, requireRecord, sameName } from '../common/records.js';
import type { ApiKeyRecord, ConfigData } from '../../core/model/config-model.js';
import { apiKeyPrefix, generateApiKey, type ApiKeyDigest } from './api-key-digest.js';
import type { CreateApiKeyInput } from '../../core/contracts/api-key-schemas.js';

/** API keys per environment: created with the key shown once, listed without it, revoked by deletion. */
export class ApiKeyService {
  constructor(
    private readonly deps: ManagementDeps,
    private readonly digest: () => Promise<ApiKeyDigest>,
  ) {}

  list(filter: { environmentId?: string } = {}): ApiKeyRecord[] {
    return this.deps.store.data.apiKeys
      .filter((key) => filter.environmentId === undefined || key.environmentId === filter.environmentId)
      .sort(byName);
  }

  get(id: string): ApiKeyRecord {
    return requireRecord(this.deps.store.data.apiKeys, id, 'API key');
  }

  async create(input: CreateApiKeyInput): Promise<{ record: ApiKeyRecord; key: string }> {
    const now = this.deps.now();
    const expiresAt = parseExpiry(input.expiresAt, now);
    const digest = await this.digest();
    const key = generateApiKey();
    const record = await this.deps.store.update((data) => {
      assertScope(data, input);
      const created: ApiKeyRecord = {
        id: randomUUID(),
        name: input.name,
        environmentId: input.environmentId,
        prefix: apiKeyPrefix(key),
        digest: digest.digestApiKey(key),
        policyIds: input.policyIds,
        createdAt: now.toISOString(),
        ...(expiresAt ? { expiresAt } : {}),
      };
      data.apiKeys.push(created);
      return created;
    });
    return { record, key };
  }

  delete(id: string): Promise<ApiKeyRecord> {
    return this.deps.store.update((data) => {
      const key = requireRecord(data.apiKeys, id, 'API key');
      data.apiKeys = data.apiKeys.filter((candidate) => candidate.id !== id);
      return key;
    });
  }
}

export function toApiKeyDto(key: ApiKeyRecord, now: Date) {
  return {
    id: key.id,
    name: key.name,
    environmentId: key.environmentId,
    prefix: key.prefix,
    policyIds: key.policyIds,
    createdAt: key.createdAt,
    ...(key.expiresAt !== undefined ? { expiresAt: key.expiresAt } : {}),
    expired: key.expiresAt !== undefined && Date.parse(key.expiresAt) <= now.getTime(),
  };
}

function parseExpiry(text: string | undefined, now: Date): string | undefined {
  if (text === undefined) return undefined;
  const at = parseUtcDateTime(text);
  if (at === undefined)
    throw validationProblem({ expiresAt: ['Use an ISO 8601 date-time such as 2027-01-31T00:00:00Z.'] });
  if (at <= now.getTime()) throw validationProblem({ expiresAt: ['The expiry must be in the future.'] });
  return new Date(at).toISOString();
}

/** The environment exists; each policy exists, runs in that environment and accepts API keys. */
function assertScope(data: ConfigData, input: CreateApiKeyInput): void {
  requireEnvironment(data, input.environmentId);
  // Keys are told apart by name in lists, monitoring and the audit trail; keys created earlier may share one.
  const namesake = data.apiKeys.find((key) => sameName(key.name, input.name));
  if (namesake) {
    throw nameTaken(
      `An API key named ${quoted(namesake.name)} already exists. Choose another name.`,
      namesake.id,
    );
  }
  const errors: string[] = [];
  for (const policyId of input.policyIds) {
    const policy = data.policies.find((candidate) => candidate.id === policyId);
    if (!policy) {
      errors.push(`No policy has id ${policyId}.`);
      continue;
    }
    const group = data.agentGroups.find((candidate) => candidate.id === policy.agentGroupId);
    if (group?.environmentId !== input.environmentId) {
      errors.push(`The policy ${quoted(policy.name)} belongs to an agent group of another environment.`);
    } else if (!policy.grants.some((grant) => grant.type === 'apiKey')) {
      errors.push(`The policy ${quoted(policy.name)} has no apiKey grant, so it accepts no API keys.`);
    }
  }
  if (errors.length > 0) throw validationProblem({ policyIds: errors });
}

function requireEnvironment(data: ConfigData, environmentId: string): void {
  if (!data.environments.some((environment) => environment.id === environmentId)) {
    throw validationProblem({ environmentId: [`No environment has id ${environmentId}.`] });
  }
}
