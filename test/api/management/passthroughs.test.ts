import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import {
  createBackendVariable,
  entry,
  expectProblem,
  importApi,
  json,
  openApiDocument,
  send,
  type ApiDto,
  type Passthrough,
} from './helpers.js';
import { TEST_CA_CERTIFICATE } from './test-certificate.js';

describe('Passthrough configurations', () => {
  let server: TestServer;
  let api: ApiDto;

  beforeAll(async () => {
    server = await startTestServer({ settings: { 'Flags:EnableServiceApiAuditLogRoute': true } });
    await createBackendVariable(server);
    api = await importApi(
      server,
      openApiDocument({ title: 'Orders', serverUrl: '/orders-api', paths: ['/orders', '/orders/{id}'] }),
    );
  });
  afterAll(() => server.close());

  const path = (apiId = api.id) => `/api/v1/apis/${apiId}/passthrough`;

  it('creates a configuration with defaults filled in, reads, replaces and deletes it', async () => {
    const created = await send(server, 'POST', path(), {
      operations: {
        'get /orders/{orderId}': {
          target: {
            section1: '{{#env.backend.url}}',
            section2: 'v2',
            section3: 'orders/{{#api.OperationPath.id}}',
          },
          headers: [{ action: 'Overwrite', name: 'Authorization', value: 'Bearer {{#env.backend.token}}' }],
        },
      },
    });
    const body = await json<{ passthrough: Passthrough }>(created);
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(path());
    const stored = body.passthrough.operations['GET /orders/{id}']!;
    expect(stored).toMatchObject({
      cors: {
        enabled: false,
        allowedOrigins: [],
        allowCredentials: false,
        maxAgeSeconds: 600,
        exposeHeaders: [],
      },
      timeouts: { connectMs: 5000, responseMs: 30000 },
      maxRequestBodyBytes: 100 * 1024 * 1024,
      tls: { verify: true },
      allowWebSocket: false,
      headers: [{ action: 'Overwrite', name: 'Authorization', value: 'Bearer {{#env.backend.token}}' }],
    });
    expect(body.passthrough.revision).toBe(1);
    await expectProblem(await send(server, 'POST', path(), { allOperations: entry() }), 409);
    const apiView = await json<ApiDto>(await server.api(`/api/v1/apis/${api.id}`));
    expect(apiView.passthroughId).toBe(body.passthrough.id);

    const replaced = await send(server, 'PUT', path(), {
      revision: 1,
      allOperations: entry('https://all.example.com', {
        target: {
          section1: 'https://all.example.com',
          section2: '',
          section3: '{{#api.OperationPath}}',
          section4: '{{#api.QueryParameters}}',
        },
        cors: {
          enabled: true,
          allowedOrigins: [
            'HTTPS://App.Example.com',
            'https://*.example.org:8443',
            'app://desk',
            'https://app.example.com',
          ],
          exposeHeaders: [' ETag', 'X-Total-Count', 'etag'],
        },
        tls: { verify: true, caCertificate: TEST_CA_CERTIFICATE },
        allowWebSocket: true,
      }),
      operations: {},
    });
    const replacedBody = await json<Passthrough>(replaced);
    expect(replacedBody.allOperations!.allowWebSocket).toBe(true);
    expect(replaced.status).toBe(200);
    expect(replacedBody.revision).toBe(2);
    expect(replacedBody.operations).toEqual({});
    expect(replacedBody.allOperations!.cors.exposeHeaders).toEqual(['ETag', 'X-Total-Count']);
    expect(replacedBody.allOperations!.cors.allowedOrigins).toEqual([
      'https://app.example.com',
      'https://*.example.org:8443',
      'app://desk',
    ]);
    const stale = await expectProblem(
      await send(server, 'PUT', path(), { revision: 1, allOperations: entry() }),
      409,
    );
    expect(stale.revision).toBe(2);

    expect((await json<Passthrough>(await server.api(path(), { roles: ['Auditor'] }))).revision).toBe(2);
    expect((await send(server, 'DELETE', path())).status).toBe(204);
    await expectProblem(await server.api(path()), 404);
    await expectProblem(await send(server, 'PUT', path(), { allOperations: entry() }), 404);
    await expectProblem(await send(server, 'DELETE', path()), 404);
    await expectProblem(await send(server, 'POST', path('nope'), { allOperations: entry() }), 404);
  });

  it('names every invalid field in the editor notation (400)', async () => {
    const invalid = {
      allOperations: {
        target: { section1: 'https://x.example.com' },
        cors: {
          enabled: true,
          allowedOrigins: ['*', 'https://x.example.com/path', 'https://*.com', 'ftp://'],
          allowCredentials: true,
          exposeHeaders: ['ETag', 'Bad Header'],
        },
        tls: { caCertificate: 'not a certificate' },
      },
      operations: {
        'GET /orders': {
          target: { section1: 'https://x.example.com' },
          headers: [
            { action: 'Add', name: 'Bad Name', value: 'x' },
            { action: 'Remove', name: 'X-Old', value: 'x' },
            { action: 'Overwrite', name: 'X-Empty' },
            { action: 'Add', name: 'Transfer-Encoding', value: 'chunked' },
            { action: 'Add', name: 'Host', value: 'evil.example.com' },
            { action: 'Add', name: 'X-Split', value: 'a\r\nInjected: yes' },
            { action: 'Add', name: 'X\nY', value: 'a' },
          ],
        },
        'DELETE /orders': entry(),
      },
    };
    // Shape errors (types, bounds) come first…
    const shape = await expectProblem(
      await send(server, 'POST', path(), {
        ...invalid,
        allOperations: { ...invalid.allOperations, timeouts: { connectMs: 10, responseMs: 10_000_000 } },
      }),
      400,
    );
    expect(Object.keys(shape.errors!).sort()).toEqual([
      'allOperations.timeouts.connectMs',
      'allOperations.timeouts.responseMs',
    ]);
    // …then every rule of every entry at once.
    const rules = await expectProblem(await send(server, 'POST', path(), invalid), 400);
    const at = (field: string) => `operations["GET /orders"].headers[${field}`;
    expect(rules.errors).toMatchObject({
      'allOperations.cors.allowedOrigins[1]': [expect.stringContaining('no path')],
      'allOperations.cors.allowedOrigins[2]': [expect.stringContaining('two labels')],
      'allOperations.cors.allowedOrigins[3]': [expect.any(String)],
      'allOperations.cors.allowCredentials': [expect.stringContaining("'*'")],
      'allOperations.cors.exposeHeaders[1]': [expect.stringContaining('not a valid HTTP header name')],
      'allOperations.tls.caCertificate': [expect.stringContaining('PEM')],
      [at('0].name')]: [expect.stringContaining('RFC 9110 token')],
      [at('1].value')]: ['A Remove entry has no value.'],
      [at('2].value')]: ['Overwrite needs a value.'],
      [at('3].name')]: [expect.stringContaining('Transfer-Encoding is managed by the gateway')],
      [at('4].name')]: [expect.stringContaining('Host is managed by the gateway')],
      [at('5].value')]: ['A header value cannot contain CR, LF or NUL.'],
      [at('6].name')]: ['A header name cannot contain CR, LF or NUL.'],
      'operations["DELETE /orders"]': [expect.stringContaining('The API has no operation DELETE /orders')],
    });
    const empty = await expectProblem(await send(server, 'POST', path(), { operations: {} }), 400);
    expect(Object.keys(empty.errors!)).toEqual(['operations']);
    await expectProblem(await send(server, 'POST', path(), { allOperations: entry(), unknown: true }), 400);
    await expectProblem(await send(server, 'POST', path(), { allOperations: { target: {} } }), 400);
    await expectProblem(
      await server.api(path(), {
        method: 'POST',
        body: '{"allOperations":',
        headers: { 'Content-Type': 'application/json' },
      }),
      400,
    );
    await expectProblem(
      await server.api(path(), { method: 'POST', body: 'x', headers: { 'Content-Type': 'text/plain' } }),
      415,
    );
  });

  it('reports template errors per section and header with their 0-based position', async () => {
    const problem = await expectProblem(
      await send(server, 'POST', path(), {
        operations: {
          'GET /orders/{id}': {
            target: {
              section1: '{{#env.nope}}',
              section2: 'fixed',
              section3: 'x/{{#api.OperationPath.orderId}}',
              section4: 'q={{#api.QueryParameters.a + }}',
            },
            headers: [
              { action: 'Add', name: 'X-Region', value: '{{#env.backend.missing}}' },
              { action: 'Add', name: 'X-Fine', value: '{{#env.backend.url}}' },
            ],
          },
        },
      }),
      400,
    );
    const key = 'operations["GET /orders/{id}"]';
    expect(problem.errors![`${key}.target.section1`]).toEqual([
      expect.stringMatching(/^section 1, position 7: unknown environment variable 'nope'/),
    ]);
    expect(problem.errors![`${key}.target.section3`]).toEqual([
      expect.stringMatching(/^section 3, position \d+: .*orderId/),
    ]);
    expect(problem.errors![`${key}.target.section4`]).toEqual([
      expect.stringMatching(/^section 4, position \d+: /),
    ]);
    expect(problem.errors![`${key}.headers[0].value`]).toEqual([
      expect.stringMatching(/^the value of header entry 0, position 15: .*missing/),
    ]);
    expect(problem.errors).not.toHaveProperty(`${key}.target.section2`);
    expect(problem.errors).not.toHaveProperty(`${key}.headers[1].value`);
    const allOperations = await expectProblem(
      await send(server, 'POST', path(), {
        allOperations: entry('https://x.example.com', {
          target: { section1: 'https://x.example.com', section3: '{{#api.OperationPath.id}}' },
        }),
      }),
      400,
    );
    expect(Object.keys(allOperations.errors!)).toEqual(['allOperations.target.section3']);
  });
});
