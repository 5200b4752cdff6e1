import { randomUUID } from 'node:crypto';
import { conflict, HttpProblem, validationProblem } from '../../core/http/problem.js';
import { assertDeployable } from '../common/deploy-checks.js';
import { passthroughUsages } from '../../core/passthrough/passthrough-references.js';
import type { ManagementDeps } from '../common/management-deps.js';
import { byName, listNames, nameTaken, quoted, requireRecord, sameName } from '../common/records.js';
import type { HeaderUnsealer } from '../../core/passthrough/sealed-headers.js';
import type { AgentGroupRecord, ConfigData } from '../../core/model/config-model.js';
import type {
  CreateAgentGroupInput,
  ModifyAgentGroupInput,
} from '../../core/contracts/agent-group-schemas.js';
import { formatListener, listenersCollide } from './listener-address.js';
import { ErrorCode } from '../../core/contracts/error-codes.js';

export const DEFAULT_AGENT_GROUP_ID = 'default';

/** The address the Control Panel listens on, which no gateway listener may take. */
export interface ReservedListener {
  host: string;
  port: number;
}

/**
 * Agent groups. The gateway reacts to store changes by starting and stopping listeners; this service keeps
 * the records consistent: unique names, distinct listener addresses, existing environments, and deployable
 * passthroughs.
 */
export class AgentGroupService {
  constructor(
    private readonly deps: ManagementDeps,
    private readonly controlPanel?: ReservedListener,
    /** Where a group's listener runs now: a port 0, or the default group's `--gateway-port`, is known only there. */
    private readonly runningAddress: (agentGroupId: string) => ReservedListener | undefined = () => undefined,
  ) {}

  list(filter: { environmentId?: string } = {}): AgentGroupRecord[] {
    return this.deps.store.data.agentGroups
      .filter((group) => filter.environmentId === undefined || group.environmentId === filter.environmentId)
      .sort(byName);
  }

  get(id: string): AgentGroupRecord {
    return requireRecord(this.deps.store.data.agentGroups, id, 'agent group');
  }

  create(input: CreateAgentGroupInput): Promise<AgentGroupRecord> {
    return this.deps.store.update((data) => {
      const at = this.deps.now().toISOString();
      const group: AgentGroupRecord = { id: randomUUID(), ...input, createdAt: at, updatedAt: at };
      this.assertConsistent(data, group);
      data.agentGroups.push(group);
      return group;
    });
  }

  modify(id: string, input: ModifyAgentGroupInput): Promise<AgentGroupRecord> {
    return this.deps.store.update((data) => {
      const group = requireRecord(data.agentGroups, id, 'agent group');
      const changed: AgentGroupRecord = {
        ...group,
        ...definedOnly(input),
        updatedAt: this.deps.now().toISOString(),
      };
      this.assertConsistent(data, changed);
      Object.assign(group, changed);
      if (input.platform !== undefined || input.environmentId !== undefined)
        assertPassthroughsDeployable(data, id, this.deps.secretBox);
      return group;
    });
  }

  /** The default group stays; a group that APIs or policies use can't go. */
  delete(id: string): Promise<AgentGroupRecord> {
    return this.deps.store.update((data) => {
      const group = requireRecord(data.agentGroups, id, 'agent group');
      if (id === DEFAULT_AGENT_GROUP_ID) {
        throw conflict(ErrorCode.GH_ERR_DEFAULT_AGENT_GROUP, 'The default agent group cannot be deleted.');
      }
      const apis = data.apis.filter((api) => api.agentGroupIds.includes(id));
      const policies = data.policies.filter((policy) => policy.agentGroupId === id);
      if (apis.length > 0 || policies.length > 0) {
        const users = [
          ...apis.map((api) => `API ${quoted(api.name)}`),
          ...policies.map((policy) => `policy ${quoted(policy.name)}`),
        ];
        throw conflict(
          ErrorCode.GH_ERR_IN_USE,
          `The agent group ${quoted(group.name)} is used by ${listNames(users)}.`,
          {
            apis: apis.map((api) => ({ id: api.id, name: api.name })),
            policies: policies.map((policy) => ({ id: policy.id, name: policy.name })),
          },
        );
      }
      data.agentGroups = data.agentGroups.filter((candidate) => candidate.id !== id);
      return group;
    });
  }

  private assertConsistent(data: ConfigData, group: AgentGroupRecord): void {
    const namesake = data.agentGroups.find(
      (other) => other.id !== group.id && sameName(other.name, group.name),
    );
    if (namesake) {
      throw nameTaken(
        `An agent group named ${quoted(namesake.name)} already exists. Choose another name.`,
        namesake.id,
      );
    }
    if (!data.environments.some((environment) => environment.id === group.environmentId)) {
      throw validationProblem({ environmentId: [`No environment has id ${group.environmentId}.`] });
    }
    if (group.platform !== 'cross-platform') return;
    for (const other of data.agentGroups) {
      if (other.id === group.id || other.platform !== 'cross-platform') continue;
      const running = this.runningAddress(other.id);
      const taken = [other, ...(running ? [running] : [])].find((address) =>
        listenersCollide(address, group),
      );
      if (taken) {
        throw portTaken(
          `The agent group ${quoted(other.name)} already listens on ${formatListener(taken.host, taken.port)}. Choose another port, or 0 for a free one.`,
          other.id,
        );
      }
    }
    if (this.controlPanel && listenersCollide(this.controlPanel, group)) {
      throw portTaken(
        `The Control Panel listens on ${formatListener(this.controlPanel.host, this.controlPanel.port)}. Choose another port, or 0 for a free one.`,
      );
    }
  }
}

/** After a group changed platform or environment: every passthrough deployed to it must still deploy. */
function assertPassthroughsDeployable(data: ConfigData, agentGroupId: string, box: HeaderUnsealer): void {
  for (const usage of passthroughUsages(data, box)) {
    if (usage.api.agentGroupIds.includes(agentGroupId)) assertDeployable(data, usage.api, usage.references);
  }
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}

/** 409 for a listener address another listener has, at the `port` field like a form shows it. */
function portTaken(message: string, conflictingId?: string): HttpProblem {
  return new HttpProblem(ErrorCode.GH_ERR_PORT_IN_USE, message, {
    title: 'That port is already taken',
    errors: { port: [message] },
    extensions: conflictingId ? { conflictingId } : {},
  });
}
