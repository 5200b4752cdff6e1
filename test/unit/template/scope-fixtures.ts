import type {
  EnvValue,
  RenderScope,
  TemplateCompileContext,
} from '../../../src-server/core/template/index.js';

/** Shared fixtures: a compile context and a per-request scope built from plain data. */

export const context: TemplateCompileContext = {
  env: {
    variables: {
      backend: { kind: 'group', members: ['url', 'host', 'path', 'apiKey', 'user', 'password'] },
      region: { kind: 'value' },
      'my-var': { kind: 'value' },
      empty: { kind: 'group', members: [] },
    },
  },
  pathParameters: ['id', 'order-id'],
  scope: 'operation',
};

export const allOperationsContext: TemplateCompileContext = {
  ...context,
  pathParameters: [],
  scope: 'allOperations',
};

export const FIXED_NOW = new Date('2024-03-05T07:08:09.123Z');

export interface ScopeOptions {
  env?: Record<string, string | EnvValue>;
  basePath?: string;
  operationPath?: string;
  pathParameters?: Record<string, string>;
  queryString?: string;
  now?: Date;
  guids?: string[];
}

export const defaultEnv: Record<string, string | EnvValue> = {
  'backend.url': 'https://backend.example.com',
  'backend.host': 'backend.example.com',
  'backend.path': 'v2/orders',
  'backend.apiKey': { value: 's3cr3t-key', secret: true },
  'backend.user': 'alice',
  'backend.password': { value: 'pa:ss', secret: true },
  region: 'eu-west',
  'my-var': 'dashed',
};

/** `env` keys are `variable` or `variable.member`. */
export function makeScope(options: ScopeOptions = {}): RenderScope {
  const env = new Map(Object.entries(options.env ?? defaultEnv));
  const queryString = options.queryString ?? '';
  const guids = [...(options.guids ?? ['0f8fad5b-d9cb-469f-a165-70867728950e'])];
  return {
    env: (variable, member) => {
      const found = env.get(member === undefined ? variable : `${variable}.${member}`);
      if (found === undefined) return undefined;
      return typeof found === 'string' ? { value: found, secret: false } : found;
    },
    api: {
      basePath: options.basePath ?? '/orders',
      operationPath: options.operationPath ?? '/lookup',
      pathParameters: options.pathParameters ?? {},
      queryString,
      query: new URLSearchParams(queryString),
    },
    now: () => options.now ?? FIXED_NOW,
    newGuid: () => guids.shift() ?? '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  };
}
