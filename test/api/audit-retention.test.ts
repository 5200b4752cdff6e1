import { afterEach, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src-server/core/audit/audit-entry.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { tempDir } from '../helpers/temp-dir.js';
import { eventually } from '../helpers/serve-client.js';

const DAY = 86_400_000;

describe('audit retention at start (seed part 8)', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('removes old general entries, keeps configuration history of live resources, drops that of deleted ones', async () => {
    const dir = await tempDir();
    const start = Date.parse('2026-01-01T00:00:00Z');
    server = await startTestServer({ dataDir: dir.path, keepDataDir: true, now: () => new Date(start) });
    const create = (name: string) =>
      server!.api('/api/v1/app-registrations', {
        method: 'POST',
        body: JSON.stringify({ name, roles: ['Auditor'] }),
      });
    const kept = (await (await create('kept')).json()) as { registration: { id: string } };
    const removed = (await (await create('removed')).json()) as { registration: { id: string } };
    expect(
      (await server.api(`/api/v1/app-registrations/${removed.registration.id}`, { method: 'DELETE' })).status,
    ).toBe(204);
    await server.gatehouse.audit.store.importEntries([
      {
        actionName: 'Process.Deploy',
        userName: 'old',
        timestamp: new Date(start - 10 * DAY).toISOString(),
        parameters: {},
        resources: [],
        category: 'general',
      },
    ]);
    await server.close();

    // 61 days later: the start-up retention run applies the rules.
    server = await startTestServer({
      dataDir: dir.path,
      keepDataDir: true,
      now: () => new Date(start + 61 * DAY),
      settings: { 'Flags:EnableServiceApiAuditLogRoute': true },
    });
    const page = (await (await server.api('/api/v1/audit-log?PageSize=200')).json()) as {
      items: AuditEntry[];
    };
    const summary = page.items.map((e) => `${e.actionName}:${e.resources[0]?.id ?? ''}`);
    expect(summary).toContain(`AppRegistrations.Create:${kept.registration.id}`);
    expect(summary).not.toContain(`AppRegistrations.Create:${removed.registration.id}`);
    expect(summary).not.toContain(`AppRegistrations.Delete:${removed.registration.id}`);
    expect(page.items.some((e) => e.userName === 'old')).toBe(false);
    await server.close();
    server = undefined;
    await dir.remove();
  });

  it('runs the start-up retention after the first answers, and by itself', async () => {
    const dir = await tempDir();
    const start = Date.parse('2026-01-01T00:00:00Z');
    const oldEntry = (userName: string) => ({
      actionName: 'Process.Deploy',
      userName,
      timestamp: new Date(start - 10 * DAY).toISOString(),
      parameters: {},
      resources: [],
      category: 'general' as const,
    });
    server = await startTestServer({ dataDir: dir.path, keepDataDir: true, now: () => new Date(start) });
    await server.gatehouse.audit.store.importEntries([oldEntry('old-1')]);
    await server.close();

    const later = {
      dataDir: dir.path,
      keepDataDir: true,
      now: () => new Date(start + 61 * DAY),
      settings: { 'Flags:EnableServiceApiAuditLogRoute': true },
      deferStartUpJobs: true,
    };
    const countOf = async (userName: string) =>
      ((await (await server!.api(`/api/v1/audit-log?userName=${userName}`)).json()) as { totalCount: number })
        .totalCount;
    server = await startTestServer({ ...later, retentionStartDelayMs: 60 * 60_000 });
    // The run waits for its delay (an hour here), on either engine.
    expect(await countOf('old-1')).toBe(1);
    await server.gatehouse.runStartUpJobs();
    expect(await countOf('old-1')).toBe(0);
    // Written after the start-up run: the next run, an hour away, would remove it.
    await server.gatehouse.audit.store.importEntries([oldEntry('old-2')]);
    expect(await countOf('old-2')).toBe(1);
    await server.close();

    // Nobody asks for it: the start-up run comes after its delay by itself.
    server = await startTestServer({ ...later, retentionStartDelayMs: 200 });
    await eventually(async () => (await countOf('old-2')) === 0);
    await server.close();
    server = undefined;
    await dir.remove();
  });
});
