import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import { importApi, json, openApiDocument, sample, type ApiDto } from './helpers.js';

const CONTENT_TYPES = [
  'application/json',
  'application/yaml',
  'text/plain',
  'application/vnd.oai.openapi+json',
];

/** Cuts, duplicates or overwrites a slice of the text: near-valid documents reach deep into validation. */
function mutation(text: string) {
  return fc
    .record({
      at: fc.nat({ max: text.length }),
      length: fc.nat({ max: 40 }),
      insert: fc.oneof(
        fc.string({ maxLength: 12 }),
        fc.constantFrom('{', '}', '[', ':', '"', '\n  ', '$ref', '&a', '*a', '{id}', '~1'),
      ),
    })
    .map(({ at, length, insert }) => text.slice(0, at) + insert + text.slice(at + length));
}

describe('fuzzing the management API', () => {
  let server: TestServer;
  let token: string;
  let api: ApiDto;

  beforeAll(async () => {
    server = await startTestServer();
    token = await server.token(['Operator']);
    const backend = (await (
      await server.api('/api/v1/environment-variables', {
        method: 'POST',
        body: JSON.stringify({ kind: 'group', name: 'backend', members: [{ name: 'url', type: 'string' }] }),
      })
    ).json()) as { id: string };
    await server.api(`/api/v1/environment-variables/${backend.id}/values/development`, {
      method: 'PUT',
      body: JSON.stringify({ members: { url: 'https://backend.example.com' } }),
    });
    api = await importApi(
      server,
      openApiDocument({ title: 'Fuzzed', serverUrl: '/fuzzed', paths: ['/a', '/a/{id}'] }),
    );
  });
  afterAll(() => server.close());

  function post(path: string, body: string | Uint8Array, contentType: string): Promise<Response> {
    return fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': contentType },
      body: typeof body === 'string' ? body : new Uint8Array(body),
    });
  }

  async function neverFails(response: Response): Promise<void> {
    const text = await response.text();
    expect(response.status, text).toBeLessThan(500);
    if (response.status === 201) {
      const id = (JSON.parse(text) as { api?: { id: string } }).api?.id;
      if (id)
        await fetch(`${server.url}/api/v1/apis/${id}`, {
          method: 'DELETE',
          headers: { Authorization: `Bearer ${token}` },
        });
    }
  }

  it('never answers an import with a 5xx, whatever the bytes', async () => {
    const samples = await Promise.all(
      ['orders-api.openapi.yaml', 'inventory-api.openapi.json', 'legacy-billing.swagger.yaml'].map(
        async (name) => (await sample(name)).toString('utf8'),
      ),
    );
    const documents = fc.oneof(
      fc.uint8Array({ maxLength: 3000 }),
      fc.string({ maxLength: 500 }),
      fc.jsonValue().map((value) => JSON.stringify(value)),
      ...samples.map(mutation),
    );
    await fc.assert(
      fc.asyncProperty(documents, fc.constantFrom(...CONTENT_TYPES), async (document, contentType) => {
        await neverFails(await post('/api/v1/apis', document, contentType));
      }),
      { numRuns: 150 },
    );
  }, 120_000);

  it('never answers a passthrough body with a 5xx, whatever the JSON', async () => {
    // Mostly plausible values, sometimes hostile ones: the bodies reach every stage, from shape to deploy checks.
    const sometimes = <T, U>(usual: fc.Arbitrary<T>, odd: fc.Arbitrary<U>) =>
      fc.oneof({ arbitrary: usual, weight: 5 }, { arbitrary: odd, weight: 1 });
    const template = sometimes(
      fc.constantFrom(
        '',
        'api/v2',
        '{{#env.backend.url}}',
        '{{#api.OperationPath}}',
        '{{#api.QueryParameters}}',
        '{{ DateTime.UtcNow.ToString("o") }}',
      ),
      fc.oneof(
        fc.string({ maxLength: 40 }),
        fc.constantFrom('{{#env.backend.url + }}', '{{', '{{#api.OperationPath.id}}'),
      ),
    );
    const section1 = sometimes(
      fc.constantFrom('https://x.example.com', 'backend.example.com:8443'),
      template,
    );
    const header = fc.record({
      action: sometimes(fc.constantFrom('Add', 'Overwrite', 'Remove'), fc.constantFrom('Delete', 'add')),
      name: sometimes(fc.constantFrom('Authorization', 'X-Key', 'X-Trace'), fc.string({ maxLength: 20 })),
      value: fc.option(sometimes(fc.constantFrom('v', 'Bearer {{#env.backend.url}}', '********'), template), {
        nil: undefined,
      }),
    });
    const entry = fc.record(
      {
        target: fc.record(
          { section1, section2: template, section3: template, section4: template },
          { requiredKeys: ['section1'] },
        ),
        headers: fc.array(header, { maxLength: 3 }),
        cors: sometimes(
          fc.record({ enabled: fc.constant(false) }),
          fc.record(
            {
              enabled: fc.boolean(),
              allowedOrigins: fc.array(
                sometimes(
                  fc.constantFrom('*', 'https://a.example.com', 'https://*.example.com'),
                  fc.string({ maxLength: 30 }),
                ),
                { maxLength: 3 },
              ),
              allowCredentials: fc.boolean(),
            },
            { requiredKeys: [] },
          ),
        ),
        timeouts: fc.record(
          {
            connectMs: sometimes(fc.integer({ min: 100, max: 120_000 }), fc.integer()),
            responseMs: sometimes(fc.constant(1000), fc.double()),
          },
          { requiredKeys: [] },
        ),
        tls: sometimes(
          fc.record({ verify: fc.boolean() }),
          fc.record(
            { verify: fc.boolean(), caCertificate: fc.string({ maxLength: 60 }) },
            { requiredKeys: [] },
          ),
        ),
      },
      { requiredKeys: ['target'] },
    );
    const key = sometimes(
      fc.constantFrom('GET /a', 'get /a/{x}', 'GET /a/{id}'),
      fc.oneof(fc.constantFrom('POST /a', '__proto__', ''), fc.string({ maxLength: 20 })),
    );
    const statuses = new Map<number, number>();
    const body = fc.oneof(
      { arbitrary: fc.jsonValue(), weight: 1 },
      {
        weight: 4,
        arbitrary: fc.record(
          {
            allOperations: entry,
            operations: fc.dictionary(key, entry, { maxKeys: 3 }),
            policy: sometimes(
              fc.constant({ grants: [{ type: 'apiKey' }] }),
              fc.record({
                grants: fc.array(fc.record({ type: fc.constantFrom('public', 'apiKey', 'jwt', 'x') }), {
                  maxLength: 2,
                }),
              }),
            ),
          },
          { requiredKeys: [] },
        ),
      },
    );
    const path = `/api/v1/apis/${api.id}/passthrough`;
    await fc.assert(
      fc.asyncProperty(body, async (value) => {
        const response = await post(path, JSON.stringify(value), 'application/json');
        const text = await response.text();
        expect(response.status, text).toBeLessThan(500);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status === 201) {
          const put = await fetch(`${server.url}${path}`, {
            method: 'PUT',
            headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
            body: JSON.stringify(value),
          });
          expect(put.status, await put.text()).toBeLessThan(500);
          await fetch(`${server.url}${path}`, {
            method: 'DELETE',
            headers: { Authorization: `Bearer ${token}` },
          });
          const policyId = (JSON.parse(text) as { policy?: { id: string } }).policy?.id;
          if (policyId) {
            await fetch(`${server.url}/api/v1/policies/${policyId}`, {
              method: 'DELETE',
              headers: { Authorization: `Bearer ${token}` },
            });
          }
        }
      }),
      { numRuns: 300 },
    );
    // The generators are meant to reach past validation too: some bodies must have been accepted.
    expect(statuses.get(201) ?? 0).toBeGreaterThan(3);
    const passthrough = await server.api(path);
    expect(passthrough.status).toBe(404);
    expect((await json<{ data: unknown[] }>(await server.api('/api/v1/policies'))).data).toEqual([]);
  }, 120_000);
});
