import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, NewAuditEntry } from '../../src-server/core/audit/audit-entry.js';
import { runCli } from '../helpers/cli-process.js';
import { tempDir } from '../helpers/temp-dir.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

interface Page {
  items: AuditEntry[];
  totalCount: number;
}

const BASE = Date.parse('2026-03-01T00:00:00.000Z');
/** Before the server's own start-up entries, stamped with its clock (an hour after BASE). */
const UNTIL = new Date(BASE + 600_000).toISOString();

function entry(minutes: number, actionName: string, userName: string): NewAuditEntry {
  return {
    actionName,
    userName,
    timestamp: new Date(BASE + minutes * 60_000).toISOString(),
    parameters: { minutes },
    resources: [],
    category: 'general',
  };
}

describe('audit trails of several tenants over HTTP', () => {
  let server: TestServer;
  const own = [entry(1, 'Process.Deploy', 'alice'), entry(2, 'Process.Deploy', 'bob')];
  const acme = [
    entry(3, 'Role.Modify', 'carol'),
    entry(4, 'Role.Modify', 'carol'),
    entry(5, 'Task.Import', 'dan'),
  ];

  beforeAll(async () => {
    server = await startTestServer({
      settings: { 'Flags:EnableServiceApiAuditLogRoute': true },
      now: () => new Date(BASE + 3_600_000),
    });
    await server.gatehouse.audit.store.importEntries(own);
    await server.gatehouse.audit.store.importEntries(acme, undefined, { tenant: 'acme' });
  });
  afterAll(() => server.close());

  async function list(query: string): Promise<Page> {
    const response = await server.api(`/api/v1/audit-log${query}`, { roles: ['Auditor'] });
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as Page;
  }

  it("reads Gatehouse's own trail by default, as it always did", async () => {
    // Besides the server's own start-up entries (user `system`).
    const page = await list('');
    expect(page.items.filter((item) => item.userName !== 'system').map((item) => item.userName)).toEqual([
      'bob',
      'alice',
    ]);
    for (const item of page.items) expect(item).not.toHaveProperty('tenant');
    expect((await list('?tenant=gatehouse')).items).toEqual(page.items);
  });

  it('reads a named tenant, the name and the parameter name in any case', async () => {
    const page = await list('?TENANT=Acme&username=CAROL');
    expect(page.totalCount).toBe(2);
    expect(page.items.every((item) => item.tenant === 'acme' && item.userName === 'carol')).toBe(true);
    expect((await list('?tenant=nobody')).totalCount).toBe(0);
  });

  it('reads every tenant at once, each entry naming its tenant', async () => {
    const page = await list(`?tenant=*&PageSize=2&PageNumber=2&endDateTimeUtc=${UNTIL}`);
    expect(page.totalCount).toBe(5);
    expect(page.items.map((item) => [item.userName, item.tenant ?? 'gatehouse'])).toEqual([
      ['carol', 'acme'],
      ['bob', 'gatehouse'],
    ]);
  });

  it('refuses a tenant that is not a name with a problem', async () => {
    const response = await server.api('/api/v1/audit-log?tenant=../x', { roles: ['Auditor'] });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
    const body = (await response.json()) as { errors: Record<string, string[]> };
    expect(Object.keys(body.errors)).toEqual(['tenant']);
  });

  it('lists the tenants, facets per tenant, and exports a tenant or all', async () => {
    const tenants = await server.api('/api/v1/audit-log/tenants', { roles: ['Auditor'] });
    const { items } = (await tenants.json()) as { items: { name: string; entries: number }[] };
    expect(items.map((tenant) => tenant.name)).toEqual(['acme', 'gatehouse']);
    expect(items[0]).toEqual({ name: 'acme', entries: 3, newest: acme[2]!.timestamp });
    expect(items[1]!.entries).toBe((await list('')).totalCount);
    const facets = await server.api('/api/v1/audit-log/facets?tenant=acme', { roles: ['Auditor'] });
    expect(await facets.json()).toEqual({
      actionNames: ['Role.Modify', 'Task.Import'],
      userNames: ['carol', 'dan'],
    });

    const csv = await server.api(`/api/v1/audit-log/export?format=csv&tenant=*&endDateTimeUtc=${UNTIL}`, {
      roles: ['Auditor'],
    });
    const rows = (await csv.text()).trim().split('\r\n');
    expect(rows).toHaveLength(6);
    expect(rows.slice(1).map((row) => row.split(',').at(-1))).toEqual([
      'acme',
      'acme',
      'acme',
      'gatehouse',
      'gatehouse',
    ]);
    const ndjson = await server.api('/api/v1/audit-log/export?tenant=acme', { roles: ['Auditor'] });
    const lines = (await ndjson.text()).trim().split('\n');
    // A whole tenant's export ends with its chain's evidence (docs/AUDIT-CHAIN.md): checkpoints and the key.
    expect(lines.at(-1)).toMatch(/^\{"auditChain":\{"version":2,"tenant":"acme"/);
    const entries = lines.filter((line) => !line.startsWith('{"auditChain'));
    expect(entries.map((line) => (JSON.parse(line) as AuditEntry).tenant)).toEqual(['acme', 'acme', 'acme']);
  });
});

describe('gatehouse audit import/export --tenant', { timeout: 120_000 }, () => {
  it('imports into a named tenant, de-duplicating per tenant, and exports it', async () => {
    const dir = await tempDir();
    try {
      const file = join(dir.path, 'acme.ndjson');
      await writeFile(
        file,
        [entry(1, 'Role.Modify', 'carol'), entry(2, 'Role.Modify', 'dan')]
          .map((e) => JSON.stringify(e))
          .join('\n'),
      );
      const first = await runCli(['audit', 'import', file, '--tenant', 'Acme', '--data-dir', dir.path]);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toMatch(/into tenant acme: 2 entries read, 2 added, 0 already present/);
      const again = await runCli(['audit', 'import', file, '--tenant', 'acme', '--data-dir', dir.path]);
      expect(again.stdout).toMatch(/2 entries read, 0 added, 2 already present/);
      const own = await runCli(['audit', 'import', file, '--data-dir', dir.path]);
      expect(own.stdout).toMatch(/into tenant gatehouse: 2 entries read, 2 added/);

      const exported = await runCli(['audit', 'export', '--tenant', 'acme', '--data-dir', dir.path]);
      expect(exported.code, exported.stderr).toBe(0);
      const lines = exported.stdout
        .trim()
        .split('\n')
        // The chain's evidence lines after the entries (docs/AUDIT-CHAIN.md).
        .filter((line) => !line.startsWith('{"auditChain'))
        .map((line) => JSON.parse(line) as AuditEntry);
      expect(lines.map((line) => [line.userName, line.tenant])).toEqual([
        ['dan', 'acme'],
        ['carol', 'acme'],
      ]);
      const all = await runCli([
        'audit',
        'export',
        '--tenant',
        '*',
        '--format',
        'csv',
        '--data-dir',
        dir.path,
      ]);
      expect(all.stdout.trim().split('\r\n')).toHaveLength(5);

      const bad = await runCli(['audit', 'import', file, '--tenant', '*', '--data-dir', dir.path]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/--tenant: a tenant name is/);
    } finally {
      await dir.remove();
    }
  });
});
