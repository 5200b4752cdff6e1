import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src-server/core/audit/audit-entry.js';
import type { AuditSource } from '../../src-server/core/contracts/audit-source-schemas.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const SECRET = 'cs-very-secret-value-42';
const BEARER = 'eyJ.pasted.bearer-token-99';

describe('audit sources over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ settings: { 'Flags:EnableServiceApiAuditLogRoute': true } });
  });
  afterAll(() => server.close());

  const admin = { roles: ['Administrator'] };
  const post = (body: unknown, roles = ['Administrator']) =>
    server.api('/api/v1/audit-sources', { method: 'POST', roles, body: JSON.stringify(body) });

  it('adds sources with client credentials or a bearer token, masking the secret everywhere', async () => {
    const created = await post({
      name: 'Acme',
      baseUrl: 'https://acme.example.com/management',
      auth: {
        kind: 'client-credentials',
        tokenEndpoint: 'https://login.example.com/acme/oauth2/token',
        clientId: 'support-desk',
        clientSecret: SECRET,
        scope: 'api://platform/.default',
      },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('/api/v1/audit-sources/acme');
    const source = (await created.json()) as AuditSource;
    expect(source).toMatchObject({
      name: 'acme',
      tenant: 'acme',
      auth: {
        kind: 'client-credentials',
        clientId: 'support-desk',
        clientSecret: '********',
        scope: 'api://platform/.default',
      },
      interrupted: false,
    });
    const bearer = await post({
      name: 'globex',
      tenant: 'globex-eu',
      baseUrl: 'http://127.0.0.1:9/',
      auth: { kind: 'bearer', token: BEARER },
    });
    expect(bearer.status).toBe(201);

    const list = await server.api('/api/v1/audit-sources', { roles: ['Auditor'] });
    const text = await list.text();
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(BEARER);
    expect((JSON.parse(text) as { items: AuditSource[] }).items.map((s) => [s.name, s.tenant])).toEqual([
      ['acme', 'acme'],
      ['globex', 'globex-eu'],
    ]);

    // Sealed at rest: the database holds neither secret in clear.
    const rows = await server.gatehouse.database.db.selectFrom('audit_sources').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(SECRET);
    expect(JSON.stringify(rows)).not.toContain(BEARER);

    // Audited, with the secrets masked.
    const audit = await server.api('/api/v1/audit-log?actionName=AuditSources.Create&PageSize=10', {
      roles: ['Auditor'],
    });
    const entries = ((await audit.json()) as { items: AuditEntry[] }).items;
    expect(entries).toHaveLength(2);
    expect(JSON.stringify(entries)).not.toContain(SECRET);
    expect(JSON.stringify(entries)).not.toContain(BEARER);
    // The token endpoint is an address, shown as it is; the client secret beside it stays masked.
    const acme = entries.find((entry) => entry.resources[0]?.id === 'acme')!;
    expect(JSON.stringify(acme.parameters)).toContain(
      '"tokenEndpoint":"https://login.example.com/acme/oauth2/token"',
    );
    expect(JSON.stringify(acme.parameters)).toContain('"clientSecret":"********"');
    expect(entries.map((e) => e.resources[0])).toEqual([
      { type: 'AuditSource', id: 'globex', name: 'globex' },
      { type: 'AuditSource', id: 'acme', name: 'acme' },
    ]);
  });

  it('changes a source keeping its secret when left out, and removes it', async () => {
    const changed = await server.api('/api/v1/audit-sources/acme', {
      ...admin,
      method: 'PUT',
      body: JSON.stringify({
        name: 'acme',
        baseUrl: 'https://acme.example.com/v2',
        auth: {
          kind: 'client-credentials',
          tokenEndpoint: 'https://login.example.com/t',
          clientId: 'desk-2',
        },
      }),
    });
    expect(changed.status, await changed.clone().text()).toBe(200);
    const kept = await server.gatehouse.audit.sources.withSecret('acme');
    expect(kept?.source).toMatchObject({ baseUrl: 'https://acme.example.com/v2', secret: SECRET });

    const gone = await server.api('/api/v1/audit-sources/acme', { ...admin, method: 'DELETE' });
    expect(gone.status).toBe(204);
    expect((await server.api('/api/v1/audit-sources/acme', admin)).status).toBe(404);
  });

  it('edits a source with PATCH: only the fields given change, the sealed secret stays unless a new one is given', async () => {
    const patch = (name: string, body: unknown, roles = ['Administrator']) =>
      server.api(`/api/v1/audit-sources/${name}`, { method: 'PATCH', roles, body: JSON.stringify(body) });
    expect(
      (
        await post({
          name: 'initech',
          baseUrl: 'https://initech.example.com',
          auth: {
            kind: 'client-credentials',
            tokenEndpoint: 'https://login.example.com/initech/token',
            clientId: 'desk',
            clientSecret: SECRET,
            scope: 'audit.read',
          },
        })
      ).status,
    ).toBe(201);

    const moved = await patch('initech', { baseUrl: 'https://initech.example.com/v2' });
    expect(moved.status, await moved.clone().text()).toBe(200);
    expect(await moved.json()).toMatchObject({
      baseUrl: 'https://initech.example.com/v2',
      tenant: 'initech',
      auth: { clientId: 'desk', scope: 'audit.read', clientSecret: '********' },
    });
    const clientChanged = await patch('initech', {
      auth: { kind: 'client-credentials', clientId: 'desk-2', scope: '' },
    });
    expect(clientChanged.status).toBe(200);
    let stored = await server.gatehouse.audit.sources.withSecret('initech');
    expect(stored?.source).toMatchObject({
      baseUrl: 'https://initech.example.com/v2',
      auth: {
        kind: 'client-credentials',
        tokenEndpoint: 'https://login.example.com/initech/token',
        clientId: 'desk-2',
      },
      secret: SECRET,
    });
    expect(stored?.source.auth).not.toHaveProperty('scope');

    const newSecret = await patch('initech', {
      auth: { kind: 'client-credentials', clientSecret: 'cs-rotated-7' },
    });
    expect(newSecret.status).toBe(200);
    expect(JSON.stringify(await newSecret.json())).not.toContain('cs-rotated-7');
    stored = await server.gatehouse.audit.sources.withSecret('initech');
    expect(stored?.source.secret).toBe('cs-rotated-7');

    // Another way of getting a token needs its secret; with it, the kind changes.
    const noToken = await patch('initech', { auth: { kind: 'bearer' } });
    expect(noToken.status).toBe(400);
    expect(((await noToken.json()) as { errors: Record<string, string[]> }).errors).toHaveProperty(
      'auth.token',
    );
    expect((await patch('initech', { auth: { kind: 'bearer', token: BEARER } })).status).toBe(200);
    const backToClient = await patch('initech', { auth: { kind: 'client-credentials', clientSecret: 'x' } });
    expect(backToClient.status).toBe(400);
    expect(
      Object.keys(((await backToClient.json()) as { errors: Record<string, string[]> }).errors).sort(),
    ).toEqual(['auth.clientId', 'auth.tokenEndpoint']);

    // No renaming, nothing unknown, 404 for no source, 403 for an Auditor; all audited with the secrets masked.
    expect((await patch('initech', { name: 'other' })).status).toBe(400);
    expect((await patch('initech', { baseUrl: 'http://far.example.com' })).status).toBe(400);
    expect((await patch('nope', { baseUrl: 'https://n.example.com' })).status).toBe(404);
    expect((await patch('initech', { baseUrl: 'https://z.example.com' }, ['Auditor'])).status).toBe(403);
    const audit = await server.api('/api/v1/audit-log?actionName=AuditSources.Modify&PageSize=20', {
      roles: ['Auditor'],
    });
    const entries = ((await audit.json()) as { items: AuditEntry[] }).items;
    const text = JSON.stringify(entries);
    expect(entries.filter((entry) => entry.resources[0]?.id === 'initech').length).toBeGreaterThanOrEqual(4);
    expect(text).not.toContain('cs-rotated-7');
    expect(text).not.toContain(BEARER);
  });

  it('refuses bad sources with problems, duplicates with 409, and non-administrators with 403', async () => {
    const plain = await post({
      name: 'far',
      baseUrl: 'http://far.example.com',
      auth: { kind: 'bearer', token: 'x' },
    });
    expect(plain.status).toBe(400);
    expect(plain.headers.get('content-type')).toMatch(/problem\+json/);
    expect(((await plain.json()) as { errors: Record<string, string[]> }).errors).toHaveProperty('baseUrl');
    const noSecret = await post({
      name: 'n',
      baseUrl: 'https://n.example.com',
      auth: { kind: 'client-credentials', tokenEndpoint: 'https://n.example.com/t', clientId: 'c' },
    });
    expect(noSecret.status).toBe(400);
    const badName = await post({
      name: '../x',
      baseUrl: 'https://n.example.com',
      auth: { kind: 'bearer', token: 't' },
    });
    expect(badName.status).toBe(400);
    const again = await post({
      name: 'globex',
      baseUrl: 'https://g.example.com',
      auth: { kind: 'bearer', token: 't' },
    });
    expect(again.status).toBe(409);
    const auditor = await post(
      { name: 'z', baseUrl: 'https://z.example.com', auth: { kind: 'bearer', token: 't' } },
      ['Auditor'],
    );
    expect(auditor.status).toBe(403);
    const sync = await server.api('/api/v1/audit-sources/globex/sync', {
      method: 'POST',
      roles: ['Auditor'],
    });
    expect(sync.status).toBe(403);
    expect((await server.api('/api/v1/audit-sources/nope/sync', { ...admin, method: 'POST' })).status).toBe(
      404,
    );
  });

  it('audits a source refused for credentials in its URLs without those credentials', async () => {
    const refused = await post({
      name: 'leaky',
      baseUrl: 'https://desk:url-password-31@leaky.example.com/m?api_key=url-key-32',
      auth: { kind: 'bearer', token: 't' },
    });
    expect(refused.status).toBe(400);
    const audit = await server.api('/api/v1/audit-log?actionName=AuditSources.Create&PageSize=50', {
      roles: ['Auditor'],
    });
    const entries = ((await audit.json()) as { items: AuditEntry[] }).items;
    const leaky = entries.find((entry) => JSON.stringify(entry.parameters).includes('leaky.example.com'));
    expect(leaky?.statusCode).toBe(400);
    expect(JSON.stringify(leaky)).not.toContain('url-password-31');
    expect(JSON.stringify(leaky)).not.toContain('url-key-32');
  });
});
