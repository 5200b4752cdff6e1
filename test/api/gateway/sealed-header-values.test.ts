import { storedConfigText } from '../../helpers/stored-config.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProblemDetails } from '../../../src-server/core/http/problem.js';
import type { EchoedRequest, Upstream } from '../../helpers/upstreams.js';
import { send, startPublicEchoGateway, type GatewayFixture } from './gateway-fixture.js';

/**
 * Literal secrets typed into credential headers (`Authorization: Bearer abc`) are sealed in the configuration
 * store: the store file never holds them, while the gateway still sends them.
 */

const LITERAL = 'literal-secret-123';

interface HeaderDto {
  action: string;
  name: string;
  value?: string;
}
interface PassthroughDto {
  allOperations?: { headers: HeaderDto[] } & Record<string, unknown>;
  operations: Record<string, unknown>;
}

let fixture: GatewayFixture;
let upstream: Upstream;
let apiId: string;

beforeAll(async () => {
  ({ fixture, upstream } = await startPublicEchoGateway({ token: 'env-token-1' }, { secret: ['token'] }));
  await fixture.setVariable('partner', { key: 'partner-key-9' });
  apiId = (await fixture.addApi({ basePath: '/sealed', name: 'Sealed headers' })).id;
});
afterAll(async () => {
  await fixture.close();
  await upstream.close();
});

const path = () => `/api/v1/apis/${apiId}/passthrough`;
const storeText = () => storedConfigText(fixture.server.gatehouse.database);

function entryWith(headers: HeaderDto[]) {
  return {
    target: { section1: '{{#env.backend.url}}', section2: 'sealed', section3: '{{#api.OperationPath}}' },
    headers,
  };
}

async function forwarded(): Promise<EchoedRequest> {
  const response = await send(fixture.gatewayUrl, { path: '/sealed/orders/1' });
  expect(response.status).toBe(200);
  return response.json() as EchoedRequest;
}

describe('literal credential header values at rest', () => {
  it('stores a literal value sealed, sends it in clear, and keeps values made of references readable', async () => {
    const created = await fixture.server.api(path(), {
      method: 'POST',
      body: JSON.stringify({
        allOperations: entryWith([
          { action: 'Overwrite', name: 'Authorization', value: `Bearer ${LITERAL}` },
          { action: 'Overwrite', name: 'X-Upstream-Token', value: 'Bearer {{#env.backend.token}}' },
          { action: 'Add', name: 'X-Partner-Key', value: 'partner-prefix-{{#env.partner.key}}' },
        ]),
      }),
    });
    expect(created.status).toBe(201);
    const body = (await created.json()) as { passthrough: PassthroughDto };
    expect(body.passthrough.allOperations!.headers.map((header) => header.value)).toEqual([
      '********',
      'Bearer {{#env.backend.token}}',
      '********',
    ]);

    const store = await storeText();
    expect(store).not.toContain(LITERAL);
    expect(store).not.toContain('partner-prefix-');
    expect(store).toContain('"value":"Bearer {{#env.backend.token}}"');
    expect(store.match(/"sealedValue":"v1:/g)).toHaveLength(2);

    const echoed = await forwarded();
    expect(echoed.headers.authorization).toBe(`Bearer ${LITERAL}`);
    expect(echoed.headers['x-upstream-token']).toBe('Bearer env-token-1');
    expect(echoed.headers['x-partner-key']).toBe('partner-prefix-partner-key-9');
  });

  it('answers ******** on GET, keeps the sealed value when it is sent back masked, and replaces a retyped one', async () => {
    const read = await fixture.server.api(path());
    const configuration = (await read.json()) as PassthroughDto & { revision: number };
    expect(configuration.allOperations!.headers[0]).toEqual({
      action: 'Overwrite',
      name: 'Authorization',
      value: '********',
    });
    expect(JSON.stringify(configuration)).not.toContain(LITERAL);

    const kept = await fixture.server.api(path(), {
      method: 'PUT',
      body: JSON.stringify({ allOperations: configuration.allOperations, operations: {} }),
    });
    expect(kept.status).toBe(200);
    expect(await storeText()).not.toContain(LITERAL);
    expect((await forwarded()).headers.authorization).toBe(`Bearer ${LITERAL}`);

    const retyped = configuration.allOperations!.headers.map((header, index) =>
      index === 0 ? { ...header, value: 'Bearer literal-secret-456' } : header,
    );
    const changed = await fixture.server.api(path(), {
      method: 'PUT',
      body: JSON.stringify({ allOperations: { ...configuration.allOperations, headers: retyped } }),
    });
    expect(changed.status).toBe(200);
    const store = await storeText();
    expect(store).not.toContain('literal-secret-456');
    expect(store).not.toContain(LITERAL);
    const echoed = await forwarded();
    expect(echoed.headers.authorization).toBe('Bearer literal-secret-456');
    expect(echoed.headers['x-partner-key']).toBe('partner-prefix-partner-key-9');

    const audited = await fixture.server.gatehouse.audit.store.query({ pageNumber: 1, pageSize: 200 });
    const text = JSON.stringify(audited.items);
    expect(text).toContain('Passthroughs.Modify');
    expect(text).not.toContain(LITERAL);
    expect(text).not.toContain('literal-secret-456');
  });

  it('previews the saved entry with the sealed values masked', async () => {
    const response = await fixture.server.api(`${path()}/preview`, {
      method: 'POST',
      body: JSON.stringify({ entry: 'allOperations' }),
    });
    expect(response.status).toBe(200);
    const preview = (await response.json()) as { headers: Record<string, string>; errors: unknown[] };
    expect(preview.errors).toEqual([]);
    expect(preview.headers).toMatchObject({
      authorization: '********',
      'x-partner-key': '********',
      'x-upstream-token': '********',
    });
    expect(JSON.stringify(preview)).not.toContain('literal-secret');
    expect(JSON.stringify(preview)).not.toContain('partner-key-9');
  });

  it('finds the #env references inside sealed values: the variable they use cannot be deleted', async () => {
    const partner = fixture.server.gatehouse.config.store.data.environmentVariables.find(
      (variable) => variable.name === 'partner',
    )!;
    const response = await fixture.server.api(`/api/v1/environment-variables/${partner.id}`, {
      method: 'DELETE',
    });
    expect(response.status).toBe(409);
    const problem = (await response.json()) as ProblemDetails;
    expect(problem.detail).toContain('Sealed headers');
  });
});
