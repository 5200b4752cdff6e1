import { randomUUID } from 'node:crypto';
import { request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { NewMonitoringRecord } from '../../../src-server/core/monitoring/monitoring-record.js';
import {
  withEntryDefaults,
  type PartialPassthroughEntry,
} from '../../../src-server/core/passthrough/forwarding/index.js';
import {
  ApiKeyDigest,
  apiKeyPrefix,
  generateApiKey,
} from '../../../src-server/control/policies/api-key-digest.js';
import type {
  ApiRecord,
  ConfigData,
  EnvVarType,
  HttpMethodName,
  PassthroughEntry,
  PolicyGrant,
  PolicyRecord,
} from '../../../src-server/core/model/config-model.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import { startEchoUpstream, type Upstream } from '../../helpers/upstreams.js';

/** A real Gatehouse whose configuration tests write straight into the store, and helpers to call its gateway. */
export interface GatewayFixture {
  server: TestServer;
  gatewayUrl: string;
  monitoring: NewMonitoringRecord[];
  /** Applies a store change and waits until the gateway has applied it (listeners included). */
  update: (mutator: (data: ConfigData) => void) => Promise<void>;
  addApi: (options: {
    basePath: string;
    operations?: string[];
    agentGroupIds?: string[];
    name?: string;
  }) => Promise<ApiRecord>;
  setPassthrough: (
    apiId: string,
    entries: {
      allOperations?: PartialPassthroughEntry;
      operations?: Record<string, PartialPassthroughEntry>;
    },
  ) => Promise<void>;
  /** An API at `basePath` whose All operations entry forwards to `section1` + the operation path and query. */
  routeAll: (basePath: string, section1: string, extra?: Partial<PartialPassthroughEntry>) => Promise<void>;
  addPolicy: (options: {
    endpoints?: PolicyRecord['endpoints'];
    grants: PolicyGrant[];
    throttle?: PolicyRecord['throttle'];
    agentGroupId?: string;
  }) => Promise<PolicyRecord>;
  /** A policy granting everyone everything on the default group. */
  allowPublic: () => Promise<PolicyRecord>;
  /** Creates a key and returns it in clear. */
  addApiKey: (options?: {
    environmentId?: string;
    policyIds?: string[];
    expiresAt?: string;
    /** The key itself, e.g. one in the form of an earlier version; a new one by default. */
    key?: string;
  }) => Promise<string>;
  setVariable: (
    name: string,
    values: Record<string, string> | string,
    options?: { secret?: string[] | boolean; environmentId?: string },
  ) => Promise<void>;
  close: () => Promise<void>;
}

/**
 * A fixture whose default group lets everyone through, an echo upstream, and the environment variable
 * `backend` = `{ url: <the upstream>, ...extra }` (with `secret` naming its secret fields).
 */
export async function startPublicEchoGateway(
  extra: Record<string, string> = {},
  options: { secret?: string[]; server?: Parameters<typeof startTestServer>[0] } = {},
): Promise<{ fixture: GatewayFixture; upstream: Upstream }> {
  const fixture = await startGatewayFixture(options.server);
  const upstream = await startEchoUpstream();
  await fixture.allowPublic();
  await fixture.setVariable('backend', { url: upstream.url, ...extra }, options);
  return { fixture, upstream };
}

/** `All operations` to `env.backend.url` under `/all`, with the operation path and the query passed on. */
export const ALL_OPERATIONS_TO_BACKEND: PartialPassthroughEntry = {
  target: {
    section1: '{{#env.backend.url}}',
    section2: 'all',
    section3: '{{#api.OperationPath}}',
    section4: '{{#api.QueryParameters}}',
  },
};

/**
 * The passthrough the preview and Try it tests share: `All operations` to the backend, and `GET /orders/{id}`
 * to `/orders/{id}?key=<backend token>` with an Authorization and an X-Order header (then `extraHeaders`).
 */
export function ordersPassthrough(extraHeaders: NonNullable<PartialPassthroughEntry['headers']> = []): {
  allOperations: PartialPassthroughEntry;
  operations: Record<string, PartialPassthroughEntry>;
} {
  return {
    allOperations: ALL_OPERATIONS_TO_BACKEND,
    operations: {
      'GET /orders/{id}': {
        target: {
          section1: '{{#env.backend.url}}',
          section2: 'orders',
          section3: '{{#api.OperationPath.id}}',
          section4: 'key={{#env.backend.token}}',
        },
        headers: [
          { action: 'Overwrite', name: 'Authorization', value: 'Bearer {{#env.backend.token}}' },
          { action: 'Add', name: 'X-Order', value: '{{#api.OperationPath.id}}' },
          ...extraHeaders,
        ],
      },
    },
  };
}

export async function startGatewayFixture(
  options: Parameters<typeof startTestServer>[0] = {},
): Promise<GatewayFixture> {
  const server = await startTestServer(options);
  const { store, secretBox } = server.gatehouse.config;
  const monitoring: NewMonitoringRecord[] = [];
  server.gatehouse.gateway.setMonitoringSink({ record: (record) => monitoring.push(record) });
  const digest = await ApiKeyDigest.open(server.gatehouse.keys);
  const now = () => new Date().toISOString();
  const update = async (mutator: (data: ConfigData) => void) => {
    await store.update(mutator);
    await server.gatehouse.gateway.settled();
  };
  const fixture: GatewayFixture = {
    server,
    get gatewayUrl() {
      return server.gatewayUrl;
    },
    monitoring,
    update,
    async addApi({ basePath, operations = [], agentGroupIds = ['default'], name }) {
      const api: ApiRecord = {
        id: randomUUID(),
        name: name ?? `API ${basePath}`,
        version: '1.0.0',
        specVersion: '3.1',
        basePath,
        agentGroupIds,
        documentFile: 'none.json',
        operations: operations.map((key) => {
          const [method, path] = key.split(' ') as [HttpMethodName, string];
          const pathParameters = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
          return { key, method, path, pathParameters };
        }),
        revision: 1,
        importedAt: now(),
        updatedAt: now(),
      };
      await update((data) => void data.apis.push(api));
      return api;
    },
    async setPassthrough(apiId, entries) {
      const operations: Record<string, PassthroughEntry> = {};
      for (const [key, entry] of Object.entries(entries.operations ?? {}))
        operations[key] = withEntryDefaults(entry);
      await update((data) => {
        const existing = data.passthroughs.find((candidate) => candidate.apiId === apiId);
        const record = {
          id: existing?.id ?? randomUUID(),
          apiId,
          ...(entries.allOperations ? { allOperations: withEntryDefaults(entries.allOperations) } : {}),
          operations,
          revision: (existing?.revision ?? 0) + 1,
          createdAt: existing?.createdAt ?? now(),
          updatedAt: now(),
        };
        data.passthroughs = [...data.passthroughs.filter((candidate) => candidate.apiId !== apiId), record];
      });
    },
    async routeAll(basePath, section1, extra = {}) {
      const api = await fixture.addApi({ basePath });
      await fixture.setPassthrough(api.id, {
        allOperations: {
          target: {
            section1,
            section2: '',
            section3: '{{#api.OperationPath}}',
            section4: '{{#api.QueryParameters}}',
          },
          ...extra,
        },
      });
    },
    async addPolicy({
      endpoints = [{ method: 'ALL', pathPrefix: '/' }],
      grants,
      throttle,
      agentGroupId = 'default',
    }) {
      const policy: PolicyRecord = {
        id: randomUUID(),
        name: `policy ${randomUUID().slice(0, 6)}`,
        agentGroupId,
        endpoints,
        grants,
        ...(throttle ? { throttle } : {}),
        createdAt: now(),
        updatedAt: now(),
      };
      await update((data) => void data.policies.push(policy));
      return policy;
    },
    allowPublic() {
      return fixture.addPolicy({ grants: [{ type: 'public' }] });
    },
    async addApiKey({
      environmentId = 'development',
      policyIds = [],
      expiresAt,
      key = generateApiKey(),
    } = {}) {
      await update(
        (data) =>
          void data.apiKeys.push({
            id: randomUUID(),
            name: `key ${randomUUID().slice(0, 6)}`,
            environmentId,
            prefix: apiKeyPrefix(key),
            digest: digest.digestApiKey(key),
            policyIds,
            createdAt: now(),
            ...(expiresAt ? { expiresAt } : {}),
          }),
      );
      return key;
    },
    async setVariable(name, values, { secret = false, environmentId = 'development' } = {}) {
      const group = typeof values !== 'string';
      const entries = group ? Object.entries(values) : [['', values] as const];
      const isSecret = (member: string) => (Array.isArray(secret) ? secret.includes(member) : secret);
      const typeOf = (member: string): EnvVarType => (isSecret(member) ? 'secret' : 'string');
      await update((data) => {
        const stored = Object.fromEntries(
          entries.map(([member, value]) => [
            member,
            isSecret(member) ? { sealed: secretBox.seal(value) } : { plain: value },
          ]),
        );
        const existing = data.environmentVariables.find((variable) => variable.name === name);
        if (existing) {
          existing.values = { ...existing.values, [environmentId]: stored };
          return;
        }
        data.environmentVariables.push({
          id: randomUUID(),
          name,
          kind: group ? 'group' : 'value',
          ...(group
            ? { members: entries.map(([member]) => ({ name: member, type: typeOf(member) })) }
            : { type: typeOf('') }),
          values: { [environmentId]: stored },
          createdAt: now(),
          updatedAt: now(),
        });
      });
    },
    close: () => server.close(),
  };
  return fixture;
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
  text: string;
  json: () => unknown;
}

/** A request with node:http (fetch normalises paths and forbids some headers; tests need them raw). */
export function send(
  url: string,
  options: { method?: string; path?: string; headers?: OutgoingHttpHeaders; body?: string | Buffer } = {},
): Promise<RawResponse> {
  const base = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: base.hostname,
        port: base.port,
        method: options.method ?? 'GET',
        path: options.path ?? '/',
        headers: options.headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          const text = body.toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            rawHeaders: res.rawHeaders,
            body,
            text,
            json: () => JSON.parse(text) as unknown,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** How long `sendRaw` waits for the first byte of an answer: only a bound that ends a hung test. */
const FIRST_BYTE_BOUND_MS = 15_000;

/**
 * Writes bytes on a raw TCP connection and returns everything the server answers until it closes, or goes quiet
 * for `quietMs` once it has answered (a busy machine may take longer than that to answer at all);
 * `onData` sees the answer so far as it grows (and may write more, e.g. a body after `100 Continue`).
 */
export function sendRaw(
  url: string,
  payload: string | Buffer,
  quietMs = 300,
  onData?: (answer: string, socket: Socket) => void,
): Promise<string> {
  const base = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(base.port), base.hostname);
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(chunks).toString('latin1'));
    };
    const arm = (ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(finish, ms);
    };
    socket.on('connect', () => {
      socket.write(payload);
      arm(FIRST_BYTE_BOUND_MS);
    });
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      onData?.(Buffer.concat(chunks).toString('latin1'), socket);
      arm(quietMs);
    });
    socket.on('end', finish);
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' ? finish() : reject(error),
    );
  });
}

/** The monitoring records of requests whose path starts with `prefix`, after they have closed. */
export async function recordsFor(
  fixture: GatewayFixture,
  prefix: string,
  count = 1,
): Promise<NewMonitoringRecord[]> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const found = fixture.monitoring.filter((record) => record.path.startsWith(prefix));
    if (found.length >= count || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
