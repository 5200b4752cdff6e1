import { storedConfigText } from '../../helpers/stored-config.js';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../src-server/core/audit/audit-entry.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import { entry, expectProblem, importApi, json, openApiDocument, send } from './helpers.js';

const SECRET = 'hunter2-do-not-leak-Zq81';
const OTHER_SECRET = 'second-secret-Kx55';

interface Variable {
  id: string;
  name: string;
  kind: string;
  type?: string;
  values: Record<string, { value?: unknown; members?: Record<string, unknown> }>;
}

async function allFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((item) => item.isFile()).map((item) => join(item.parentPath, item.name));
}

describe('environment variables', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ settings: { 'Flags:EnableServiceApiAuditLogRoute': true } });
  });
  afterAll(() => server.close());

  async function create(body: Record<string, unknown>): Promise<Variable> {
    const response = await send(server, 'POST', '/api/v1/environment-variables', body);
    const created = await json<Variable>(response);
    if (response.status !== 201) expect.fail(`${response.status} ${JSON.stringify(created)}`);
    return created;
  }

  const values = (id: string, environmentId = 'development') =>
    `/api/v1/environment-variables/${id}/values/${environmentId}`;

  it('creates value and group variables, validating names (identifiers, unique ignoring case)', async () => {
    const value = await create({ kind: 'value', name: 'timeoutSeconds', type: 'number' });
    expect(value).toMatchObject({ kind: 'value', type: 'number', values: {} });
    const group = await create({
      kind: 'group',
      name: 'crm',
      members: [
        { name: 'url', type: 'string' },
        { name: 'enabled', type: 'boolean' },
      ],
    });
    expect(group.kind).toBe('group');
    expect((await create({ kind: 'value', name: 'plain' })).type).toBe('string');

    const badName = await expectProblem(
      await send(server, 'POST', '/api/v1/environment-variables', { kind: 'value', name: '1st-var' }),
      400,
    );
    expect(Object.keys(badName.errors!)).toEqual(['name']);
    await expectProblem(
      await send(server, 'POST', '/api/v1/environment-variables', { kind: 'value', name: 'CRM' }),
      409,
    );
    const badMembers = await expectProblem(
      await send(server, 'POST', '/api/v1/environment-variables', {
        kind: 'group',
        name: 'dup',
        members: [
          { name: 'a', type: 'string' },
          { name: 'A', type: 'number' },
        ],
      }),
      400,
    );
    expect(Object.keys(badMembers.errors!)).toEqual(['members[1].name']);
    await expectProblem(
      await send(server, 'POST', '/api/v1/environment-variables', {
        kind: 'group',
        name: 'empty',
        members: [],
      }),
      400,
    );
    await expectProblem(
      await send(server, 'POST', '/api/v1/environment-variables', { kind: 'other', name: 'x' }),
      400,
    );
  });

  it('sets values per environment, checked against their type', async () => {
    const timeout = await create({ kind: 'value', name: 'retries', type: 'number' });
    const number = await send(server, 'PUT', values(timeout.id), { value: '3' });
    expect((await json<Variable>(number)).values).toEqual({ development: { value: 3 } });
    const notNumber = await expectProblem(
      await send(server, 'PUT', values(timeout.id), { value: 'three' }),
      400,
    );
    expect(notNumber.errors).toEqual({ value: ['Expected a number such as 42 or 1.5.'] });
    await expectProblem(await send(server, 'PUT', values(timeout.id), { members: { a: 1 } }), 400);
    await expectProblem(await send(server, 'PUT', values(timeout.id, 'nope'), { value: 1 }), 404);
    await expectProblem(await send(server, 'PUT', values('nope'), { value: 1 }), 404);

    const flags = await create({
      kind: 'group',
      name: 'flags',
      members: [
        { name: 'on', type: 'boolean' },
        { name: 'label', type: 'string' },
      ],
    });
    const set = await json<Variable>(
      await send(server, 'PUT', values(flags.id), { members: { on: 'TRUE', label: 'x' } }),
    );
    expect(set.values.development).toEqual({ members: { on: true, label: 'x' } });
    const wrong = await expectProblem(
      await send(server, 'PUT', values(flags.id), { members: { on: 'yes', label: 5, missing: 'x' } }),
      400,
    );
    expect(Object.keys(wrong.errors!).sort()).toEqual(['members.label', 'members.missing', 'members.on']);

    expect((await send(server, 'DELETE', values(flags.id))).status).toBe(204);
    await expectProblem(await send(server, 'DELETE', values(flags.id)), 404);
    expect(
      (await json<Variable>(await server.api(`/api/v1/environment-variables/${flags.id}`))).values,
    ).toEqual({});
  });

  it('changes types, re-checking stored values, and never turns a secret back into plain text', async () => {
    const port = await create({ kind: 'value', name: 'port', type: 'string' });
    await send(server, 'PUT', values(port.id), { value: 'eighty' });
    const refused = await expectProblem(
      await send(server, 'PATCH', `/api/v1/environment-variables/${port.id}`, { type: 'number' }),
      422,
    );
    expect(refused.detail).toContain("environment 'Development'");
    await send(server, 'PUT', values(port.id), { value: '8080' });
    const retyped = await json<Variable>(
      await send(server, 'PATCH', `/api/v1/environment-variables/${port.id}`, { type: 'number' }),
    );
    expect(retyped.values.development).toEqual({ value: 8080 });
    const sealed = await json<Variable>(
      await send(server, 'PATCH', `/api/v1/environment-variables/${port.id}`, { type: 'secret' }),
    );
    expect(sealed.values.development).toEqual({ value: '********' });
    await expectProblem(
      await send(server, 'PATCH', `/api/v1/environment-variables/${port.id}`, { type: 'string' }),
      422,
    );
    await expectProblem(
      await send(server, 'PATCH', `/api/v1/environment-variables/${port.id}`, {
        members: [{ name: 'a', type: 'string' }],
      }),
      400,
    );
  });

  it('keeps secrets out of responses, the audit trail and the store file', async () => {
    const token = await create({ kind: 'value', name: 'apiToken', type: 'secret' });
    const group = await create({
      kind: 'group',
      name: 'billing',
      members: [
        { name: 'url', type: 'string' },
        { name: 'clientKey', type: 'secret' },
      ],
    });
    const setToken = await send(server, 'PUT', values(token.id), { value: SECRET });
    expect(await setToken.text()).not.toContain(SECRET);
    const setGroup = await json<Variable>(
      await send(server, 'PUT', values(group.id), {
        members: { url: 'https://billing.example.com', clientKey: OTHER_SECRET },
      }),
    );
    expect(setGroup.values.development).toEqual({
      members: { url: 'https://billing.example.com', clientKey: '********' },
    });
    // Failed attempts are audited too, and must not carry the secret either.
    await expectProblem(await send(server, 'PUT', values('no-such-variable'), { value: SECRET }), 404);
    await expectProblem(await send(server, 'PUT', values(group.id), { members: { nope: SECRET } }), 400);

    // Sending the mask back keeps the stored secret.
    const kept = await send(server, 'PUT', values(group.id), {
      members: { url: 'https://b2.example.com', clientKey: '********' },
    });
    expect(kept.status).toBe(200);

    const list = await (await server.api('/api/v1/environment-variables')).text();
    expect(list).not.toContain(SECRET);
    expect(list).not.toContain(OTHER_SECRET);
    const audit = await (await server.api('/api/v1/audit-log/export', { roles: ['Auditor'] })).text();
    expect(audit).toContain('EnvironmentVariables.Modify');
    expect(audit).toContain('https://billing.example.com');
    expect(audit).not.toContain(SECRET);
    expect(audit).not.toContain(OTHER_SECRET);
    const log = await json<{ items: AuditEntry[] }>(
      await server.api(`/api/v1/audit-log?actionName=EnvironmentVariables.Modify&PageSize=200`, {
        roles: ['Auditor'],
      }),
    );
    const setTokenEntry = log.items.find((item) => item.parameters.id === token.id);
    expect(setTokenEntry).toMatchObject({ parameters: { value: '********', environmentId: 'development' } });

    // At rest: neither the data dir's files (the SQLite database among them) nor the stored configuration
    // (on PostgreSQL, in the server) hold a secret; a plain value is there.
    let plainValueSeen = false;
    for (const file of await allFiles(server.dataDir)) {
      const content = await readFile(file);
      plainValueSeen ||= content.includes('https://b2.example.com');
      expect(content.includes(SECRET), file).toBe(false);
      expect(content.includes(OTHER_SECRET), file).toBe(false);
    }
    const stored = await storedConfigText(server.gatehouse.database);
    plainValueSeen ||= stored.includes('https://b2.example.com');
    expect(stored).not.toContain(SECRET);
    expect(stored).not.toContain(OTHER_SECRET);
    expect(plainValueSeen).toBe(true);
  });

  it('refuses to delete, rename or empty a variable that a passthrough uses (409)', async () => {
    const backend = await create({
      kind: 'group',
      name: 'backend',
      members: [
        { name: 'url', type: 'string' },
        { name: 'unused', type: 'string' },
      ],
    });
    await send(server, 'PUT', values(backend.id), { members: { url: 'https://backend.example.com' } });
    const api = await importApi(
      server,
      openApiDocument({ title: 'Uses backend', serverUrl: '/uses-backend' }),
    );
    const created = await send(server, 'POST', `/api/v1/apis/${api.id}/passthrough`, {
      allOperations: entry('{{#env.backend.url}}'),
    });
    expect(created.status).toBe(201);

    const deleting = await expectProblem(
      await send(server, 'DELETE', `/api/v1/environment-variables/${backend.id}`),
      409,
    );
    expect(deleting.detail).toContain("API 'Uses backend'");
    expect(deleting.passthroughs).toEqual([expect.objectContaining({ apiId: api.id })]);
    await expectProblem(
      await send(server, 'PATCH', `/api/v1/environment-variables/${backend.id}`, { name: 'backend2' }),
      409,
    );
    await expectProblem(
      await send(server, 'PATCH', `/api/v1/environment-variables/${backend.id}`, {
        members: [{ name: 'unused', type: 'string' }],
      }),
      409,
    );
    const emptied = await expectProblem(await send(server, 'DELETE', values(backend.id)), 409);
    expect(emptied.detail).toContain("#env.backend.url has no value in environment 'Development'");
    await expectProblem(await send(server, 'PUT', values(backend.id), { members: { unused: 'x' } }), 409);

    // Dropping a member nobody uses is fine.
    const narrowed = await send(server, 'PATCH', `/api/v1/environment-variables/${backend.id}`, {
      members: [{ name: 'url', type: 'string' }],
    });
    expect(narrowed.status).toBe(200);
    expect((await send(server, 'DELETE', `/api/v1/apis/${api.id}/passthrough`)).status).toBe(204);
    expect((await send(server, 'DELETE', `/api/v1/environment-variables/${backend.id}`)).status).toBe(204);
  });

  it('filters the list by search and deletes variables', async () => {
    const found = await json<{ data: Variable[] }>(
      await server.api('/api/v1/environment-variables?search=BILL'),
    );
    expect(found.data.map((variable) => variable.name)).toEqual(['billing']);
    const id = found.data[0]!.id;
    expect((await send(server, 'DELETE', `/api/v1/environment-variables/${id}`)).status).toBe(204);
    await expectProblem(await server.api(`/api/v1/environment-variables/${id}`), 404);
  });
});
