import type { AuditCategory, AuditResource } from '../../src-server/core/audit/audit-entry.js';
import type { Random } from './random.js';

/** What an action builder may use: randomness and the shared pools of processes and agent groups. */
export interface GeneratorContext {
  random: Random;
  pick: <T>(items: readonly T[]) => T;
  id: (prefix: string) => string;
  processes: readonly { id: string; name: string }[];
  agentGroups: readonly { id: string; name: string }[];
}

export interface ActionSpec {
  actionName: string;
  category: AuditCategory;
  /** Random but plausible parameters and resources of one occurrence. */
  build: (context: GeneratorContext) => { parameters: Record<string, unknown>; resources: AuditResource[] };
}

const ENVIRONMENTS = ['Production', 'Test', 'Development', 'Acceptance'];
const VARIABLE_NAMES = [
  'ApiBaseUrl',
  'SmtpHost',
  'BatchSize',
  'RetryCount',
  'Timeout',
  'ArchivePath',
  'ClientId',
];
const ELEMENTS = [
  'Scheduler.MaxThreads',
  'Mail.DefaultSender',
  'Logging.Level',
  'Proxy.Address',
  'Archive.Days',
];
const ROLES = ['Administrator', 'Developer', 'Operator', 'Auditor', 'Viewer', 'Support'];
const UI_PATHS = [
  '/api/processes/search',
  '/api/monitoring/filter',
  '/api/dashboard/layout',
  '/api/reports/run',
];

function processResource(context: GeneratorContext): {
  process: { id: string; name: string };
  resources: AuditResource[];
} {
  const process = context.processes[Math.floor(Math.pow(context.random(), 2) * context.processes.length)]!;
  return { process, resources: [{ type: 'Process', id: process.id, name: process.name }] };
}

const processAction =
  (extra: (context: GeneratorContext) => Record<string, unknown>) =>
  (context: GeneratorContext): { parameters: Record<string, unknown>; resources: AuditResource[] } => {
    const { process, resources } = processResource(context);
    return {
      parameters: {
        processId: process.id,
        processName: process.name,
        environment: context.pick(ENVIRONMENTS),
        ...extra(context),
      },
      resources,
    };
  };

/** Ordered by popularity: index 0 is the most frequent action. */
export const AUDIT_ACTION_CATALOG: readonly ActionSpec[] = [
  {
    actionName: 'ProcessInstance.Acknowledge',
    category: 'general',
    build: (c) => ({
      parameters: {
        instanceIds: Array.from({ length: 1 + Math.floor(c.random() * 5) }, () => c.id('inst')),
        comment: c.pick(['handled', 'retried manually', 'known issue', '']),
      },
      resources: [],
    }),
  },
  {
    actionName: 'Agent.Heartbeat',
    category: 'agent',
    build: (c) => ({
      parameters: {
        agentId: c.id('agent'),
        uptimeSeconds: Math.floor(c.random() * 1e6),
        queueLength: Math.floor(c.random() * 40),
      },
      resources: [],
    }),
  },
  {
    actionName: 'Ui.Post',
    category: 'general',
    build: (c) => ({
      parameters: {
        path: c.pick(UI_PATHS),
        body: { pageSize: 50, filter: { status: c.pick(['Error', 'Warning', 'Completed']) } },
      },
      resources: [],
    }),
  },
  {
    actionName: 'Process.Modify',
    category: 'configuration',
    build: processAction((c) => ({
      version: 1 + Math.floor(c.random() * 90),
      changedSteps: Math.floor(c.random() * 12),
      comment: 'Adjusted mapping for new field',
    })),
  },
  {
    actionName: 'Process.Deploy',
    category: 'configuration',
    build: processAction((c) => ({
      version: 1 + Math.floor(c.random() * 90),
      packageSize: Math.floor(c.random() * 5e6),
      notes: 'Release candidate',
    })),
  },
  {
    actionName: 'User.SignIn',
    category: 'general',
    build: (c) => ({
      parameters: {
        method: c.pick(['password', 'sso', 'token']),
        clientAddress: `10.0.${Math.floor(c.random() * 255)}.${Math.floor(c.random() * 255)}`,
      },
      resources: [],
    }),
  },
  {
    actionName: 'EnvironmentVariable.Modify',
    category: 'configuration',
    build: (c) => {
      const name = c.pick(VARIABLE_NAMES);
      const environment = c.pick(ENVIRONMENTS);
      return {
        parameters: { name, environment, value: '***', previousValue: '***' },
        resources: [{ type: 'EnvironmentVariable', id: `${environment}:${name}`, name }],
      };
    },
  },
  {
    actionName: 'Agent.Started',
    category: 'agent',
    build: (c) => ({
      parameters: {
        agentId: c.id('agent'),
        version: `8.${Math.floor(c.random() * 9)}.${Math.floor(c.random() * 30)}`,
        host: `node-${Math.floor(c.random() * 30)}`,
      },
      resources: [],
    }),
  },
  {
    actionName: 'Agent.Stopped',
    category: 'agent',
    build: (c) => ({
      parameters: { agentId: c.id('agent'), reason: c.pick(['shutdown', 'update', 'crash']) },
      resources: [],
    }),
  },
  {
    actionName: 'Task.Import',
    category: 'general',
    build: (c) => ({
      parameters: {
        fileName: `tasks-${Math.floor(c.random() * 1000)}.csv`,
        rows: Math.floor(c.random() * 5000),
        skipped: Math.floor(c.random() * 10),
      },
      resources: [],
    }),
  },
  {
    actionName: 'Process.Activate',
    category: 'configuration',
    build: processAction(() => ({ schedule: 'every 5 minutes' })),
  },
  {
    actionName: 'Process.Deactivate',
    category: 'configuration',
    build: processAction((c) => ({ reason: c.pick(['maintenance', 'obsolete', 'incident']) })),
  },
  {
    actionName: 'ConfigurationElement.Modify',
    category: 'configuration',
    build: (c) => {
      const element = c.pick(ELEMENTS);
      return {
        parameters: {
          element,
          value: String(Math.floor(c.random() * 100)),
          previousValue: String(Math.floor(c.random() * 100)),
        },
        resources: [{ type: 'ConfigurationElement', id: element }],
      };
    },
  },
  {
    actionName: 'EnvironmentVariable.Create',
    category: 'configuration',
    build: (c) => {
      const name = `${c.pick(VARIABLE_NAMES)}${Math.floor(c.random() * 50)}`;
      return {
        parameters: { name, environment: c.pick(ENVIRONMENTS), value: '***' },
        resources: [{ type: 'EnvironmentVariable', id: name, name }],
      };
    },
  },
  {
    actionName: 'Process.Create',
    category: 'configuration',
    build: processAction(() => ({ template: 'blank' })),
  },
  {
    actionName: 'Role.AssignUser',
    category: 'configuration',
    build: (c) => roleParameters(c, { userName: `user${Math.floor(c.random() * 300)}` }),
  },
  {
    actionName: 'Role.Modify',
    category: 'configuration',
    build: (c) =>
      roleParameters(c, {
        permissions: ['Process.Read', 'Process.Deploy', 'Monitoring.Read'].slice(
          0,
          1 + Math.floor(c.random() * 3),
        ),
      }),
  },
  {
    actionName: 'User.Create',
    category: 'general',
    build: (c) => ({
      parameters: {
        userName: `user${Math.floor(c.random() * 300)}`,
        email: `user${Math.floor(c.random() * 300)}@example.com`,
        roles: [c.pick(ROLES)],
      },
      resources: [],
    }),
  },
  {
    actionName: 'User.Modify',
    category: 'general',
    build: (c) => ({
      parameters: {
        userName: `user${Math.floor(c.random() * 300)}`,
        changes: { displayName: 'Updated name' },
      },
      resources: [],
    }),
  },
  {
    actionName: 'Process.Delete',
    category: 'configuration',
    build: processAction(() => ({ confirmed: true })),
  },
  {
    actionName: 'EnvironmentVariable.Delete',
    category: 'configuration',
    build: (c) => {
      const name = c.pick(VARIABLE_NAMES);
      return {
        parameters: { name, environment: c.pick(ENVIRONMENTS) },
        resources: [{ type: 'EnvironmentVariable', id: name, name }],
      };
    },
  },
  {
    actionName: 'Role.Create',
    category: 'configuration',
    build: (c) => roleParameters(c, { copiedFrom: c.pick(ROLES) }),
  },
  { actionName: 'Role.Delete', category: 'configuration', build: (c) => roleParameters(c, {}) },
  {
    actionName: 'User.Delete',
    category: 'general',
    build: (c) => ({ parameters: { userName: `user${Math.floor(c.random() * 300)}` }, resources: [] }),
  },
  {
    actionName: 'Agent.Updated',
    category: 'agent',
    build: (c) => ({
      parameters: { agentId: c.id('agent'), fromVersion: '8.1.0', toVersion: '8.2.0' },
      resources: [],
    }),
  },
];

function roleParameters(
  context: GeneratorContext,
  extra: Record<string, unknown>,
): { parameters: Record<string, unknown>; resources: AuditResource[] } {
  const role = context.pick(ROLES);
  return {
    parameters: { role, ...extra },
    resources: [{ type: 'Role', id: role.toLowerCase(), name: role }],
  };
}
