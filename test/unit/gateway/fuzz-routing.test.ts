import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildApiRoute } from '../../../src-server/gateway/runtime/api-route.js';
import { resolveRoute } from '../../../src-server/gateway/runtime/route-table.js';
import { parseRequestTarget } from '../../../src-server/gateway/handler/request-target.js';
import {
  compileForwardingEntry,
  planForwarding,
  withEntryDefaults,
} from '../../../src-server/core/passthrough/forwarding/index.js';
import type { ApiRecord, HttpMethodName } from '../../../src-server/core/model/config-model.js';
import { openEntry } from '../../../src-server/core/passthrough/sealed-headers.js';

/** The entries of these tests hold no sealed header values: nothing is ever unsealed. */
const NO_SEALED_VALUES = {
  unseal(): string {
    throw new Error('no sealed values in this test');
  },
};

const record: ApiRecord = {
  id: 'api',
  name: 'api',
  version: '1',
  specVersion: '3.1',
  basePath: '/api',
  agentGroupIds: [],
  documentFile: 'x',
  operations: ['GET /a/{id}', 'GET /a/{id}/{file}.{ext}', 'POST /b'].map((key) => {
    const [method, path] = key.split(' ') as [HttpMethodName, string];
    return { key, method, path, pathParameters: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!) };
  }),
  revision: 1,
  importedAt: '',
  updatedAt: '',
};
const target = {
  section1: 'https://target.example:8443',
  section2: '{{#api.QueryParameters.p}}',
  section3: '{{#api.OperationPath}}',
  section4: '{{#api.QueryParameters}}',
};
const route = buildApiRoute(
  record,
  {
    id: 'p',
    apiId: 'api',
    allOperations: withEntryDefaults({ target }),
    operations: {
      'GET /a/{id}': withEntryDefaults({ target: { ...target, section3: '{{#api.OperationPath.id}}' } }),
    },
    revision: 1,
    createdAt: '',
    updatedAt: '',
  },
  {},
  (entry, context) => compileForwardingEntry(entry, { ...context, env: { variables: {} } }),
  (entry) => openEntry(entry, NO_SEALED_VALUES),
).api;

describe('fuzzing the request target, routing and the forwarding plan', () => {
  it('never throws, never leaves the target origin, and never yields a dot segment', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 80 }),
        fc.constantFrom('GET', 'POST', 'PUT', 'TRACE'),
        (tail, method) => {
          const target = parseRequestTarget(`/api/${tail}`);
          if (!target.ok) return;
          for (const segment of target.decodedSegments) expect(segment).not.toMatch(/^\.\.?$|[/\\\0]/);
          const resolution = resolveRoute([route], method, target);
          if (resolution.kind !== 'endpoint') return;
          const plan = planForwarding(
            resolution.endpoint.compiled!,
            {
              method,
              path: target.path,
              query: target.query,
              headers: {},
              clientIp: '1.2.3.4',
              scheme: 'http',
            },
            {
              basePath: '/api',
              operationPath: resolution.operationPath,
              pathParameters: resolution.pathParameters,
            },
            { env: () => undefined },
          );
          if (!plan.ok) {
            expect(plan.status).toBe(400);
            return;
          }
          expect(new URL(plan.target.href).origin).toBe('https://target.example:8443');
          expect(plan.target).toEqual({ ...plan.target, ...pick(new URL(plan.target.href)) });
          expect(plan.target.pathname.split('/')).not.toContain('..');
        },
      ),
      { numRuns: 3000 },
    );
  });
});

function pick(url: URL) {
  const { href, protocol, host, hostname, port, pathname, search } = url;
  return { href, protocol, host, hostname, port, pathname, search };
}
