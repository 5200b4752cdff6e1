import { randomUUID } from 'node:crypto';
import { conflict } from '../../core/http/problem.js';
import type { ManagementDeps } from '../common/management-deps.js';
import { byName, listNames, nameTaken, quoted, requireRecord, sameName } from '../common/records.js';
import type { ConfigData, EnvironmentRecord } from '../../core/model/config-model.js';
import type {
  CreateEnvironmentInput,
  ModifyEnvironmentInput,
} from '../../core/contracts/environment-schemas.js';
import { ErrorCode } from '../../core/contracts/error-codes.js';

/** Environments: agent groups run in one; environment variables and API keys have values per environment. */
export class EnvironmentService {
  constructor(private readonly deps: ManagementDeps) {}

  list(): EnvironmentRecord[] {
    return [...this.deps.store.data.environments].sort(byName);
  }

  get(id: string): EnvironmentRecord {
    return requireRecord(this.deps.store.data.environments, id, 'environment');
  }

  create(input: CreateEnvironmentInput): Promise<EnvironmentRecord> {
    return this.deps.store.update((data) => {
      assertNameFree(data, input.name);
      const at = this.deps.now().toISOString();
      const environment: EnvironmentRecord = {
        id: randomUUID(),
        name: input.name,
        ...(input.description !== undefined ? { description: input.description } : {}),
        createdAt: at,
        updatedAt: at,
      };
      data.environments.push(environment);
      return environment;
    });
  }

  modify(id: string, input: ModifyEnvironmentInput): Promise<EnvironmentRecord> {
    return this.deps.store.update((data) => {
      const environment = requireRecord(data.environments, id, 'environment');
      if (input.name !== undefined) {
        assertNameFree(data, input.name, id);
        environment.name = input.name;
      }
      if (input.description === null) delete environment.description;
      else if (input.description !== undefined) environment.description = input.description;
      environment.updatedAt = this.deps.now().toISOString();
      return environment;
    });
  }

  /** Refused while agent groups run in it or API keys belong to it; its variable values go with it. */
  delete(id: string): Promise<EnvironmentRecord> {
    return this.deps.store.update((data) => {
      const environment = requireRecord(data.environments, id, 'environment');
      const groups = data.agentGroups.filter((group) => group.environmentId === id);
      if (groups.length > 0) {
        throw conflict(
          ErrorCode.GH_ERR_IN_USE,
          `The environment ${quoted(environment.name)} is used by the agent group${groups.length > 1 ? 's' : ''} ${listNames(groups.map((group) => quoted(group.name)))}. Move them to another environment first.`,
          { agentGroups: groups.map((group) => ({ id: group.id, name: group.name })) },
        );
      }
      const keys = data.apiKeys.filter((key) => key.environmentId === id);
      if (keys.length > 0) {
        throw conflict(
          ErrorCode.GH_ERR_IN_USE,
          `The environment ${quoted(environment.name)} has ${keys.length} API key${keys.length > 1 ? 's' : ''} (${listNames(keys.map((key) => quoted(key.name)))}). Revoke them first.`,
          { apiKeys: keys.map((key) => ({ id: key.id, name: key.name })) },
        );
      }
      data.environments = data.environments.filter((candidate) => candidate.id !== id);
      for (const variable of data.environmentVariables) delete variable.values[id];
      return environment;
    });
  }
}

function assertNameFree(data: ConfigData, name: string, exceptId?: string): void {
  const other = data.environments.find(
    (candidate) => candidate.id !== exceptId && sameName(candidate.name, name),
  );
  if (other)
    throw nameTaken(
      `An environment named ${quoted(other.name)} already exists. Choose another name.`,
      other.id,
    );
}
