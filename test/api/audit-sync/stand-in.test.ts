import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SecretBox } from '../../../src-server/core/config-store/secret-box.js';
import { AuditSourceStore } from '../../../src-server/core/audit/sources/audit-source-store.js';
import { SqlAuditStore } from '../../../src-server/core/audit/sql/sql-audit-store.js';
import type { AuditStore } from '../../../src-server/core/audit/audit-entry.js';
import type { Database } from '../../../src-server/core/storage/database.js';
import { syncAuditSource, SYNC_OVERLAP_MS } from '../../../src-server/control/audit/sync/audit-sync.js';
import { AuditStandIn } from '../../helpers/audit-stand-in.js';
import { testEngine } from '../../helpers/test-database.js';
import { StoreFixture } from '../../unit/audit-store/helpers.js';

const TOKEN = 'stand-in-token';
const NOW = Date.parse('2026-05-01T12:00:00.000Z');

describe('audit sync against a stand-in tenant', { timeout: 60_000 }, () => {
  let fixture: StoreFixture;
  let database: Database;
  let auditStore: AuditStore;
  let sources: AuditSourceStore;
  let standIn: AuditStandIn;
  let now = NOW;

  async function open(options: ConstructorParameters<typeof AuditStandIn>[0] = {}) {
    standIn = await new AuditStandIn({ token: TOKEN, ...options }).start();
    await sources.create({
      name: 'acme',
      baseUrl: standIn.url,
      auth: { kind: 'bearer', token: TOKEN },
    });
  }

  const sync = (extra: Partial<Parameters<typeof syncAuditSource>[1]> = {}) =>
    syncAuditSource('acme', {
      sources,
      auditStore,
      now: () => now,
      backoffBaseMs: 20,
      backoffCapMs: 2_000,
      ...extra,
    });

  const synced = async () =>
    (await auditStore.query({ tenant: 'acme', pageNumber: 1, pageSize: 200 })).totalCount;

  beforeEach(async () => {
    fixture = await StoreFixture.create(testEngine());
    database = await fixture.openDatabase();
    auditStore = new SqlAuditStore(database);
    sources = new AuditSourceStore(database, await SecretBox.open(join(fixture.dataDir, 'secrets.key')));
    now = NOW;
  });
  afterEach(async () => {
    await standIn.close();
    await auditStore.close();
    await database.close();
    await fixture.dispose();
  });

  it('walks every page (PageSize 200) with a pinned end, then syncs incrementally with an overlap', async () => {
    await open();
    standIn.add(450, NOW - 450 * 60_000);
    const first = await sync();
    expect(first).toMatchObject({
      status: 'completed',
      pages: 3,
      read: 450,
      added: 450,
      duplicates: 0,
      resumed: false,
    });
    expect(standIn.requests.map((q) => [q.pagenumber, q.pagesize, q.enddatetimeutc])).toEqual([
      ['1', '200', new Date(NOW).toISOString()],
      ['2', '200', new Date(NOW).toISOString()],
      ['3', '200', new Date(NOW).toISOString()],
    ]);
    expect(standIn.requests[0]).not.toHaveProperty('startdatetimeutc');
    expect(await synced()).toBe(450);
    // Entries keep the id they had at the tenant.
    const newest = (await auditStore.query({ tenant: 'acme', pageNumber: 1, pageSize: 1 })).items[0]!;
    expect(newest.sourceId).toBe(450);

    // New entries arrive; the next sync asks only from the last end less the overlap window.
    standIn.add(5, NOW + 1_000);
    now = NOW + 3_600_000;
    standIn.requests.length = 0;
    const second = await sync();
    expect(standIn.requests).toHaveLength(1);
    expect(standIn.requests[0]!.startdatetimeutc).toBe(new Date(NOW - SYNC_OVERLAP_MS).toISOString());
    // The overlap's 10 entries are found again and de-duplicated by content.
    expect(second).toMatchObject({ status: 'completed', pages: 1, added: 5, duplicates: 10 });
    expect(await synced()).toBe(455);
    const source = await sources.get('acme');
    expect(source).toMatchObject({ syncedUntil: new Date(now).toISOString(), interrupted: false });
  });

  it('reads the older {data} envelope with member names in any case', async () => {
    await open({ envelope: 'data', pascalCase: true });
    standIn.add(230, NOW - 230 * 60_000);
    // No totalCount in this shape: the short last page ends the walk.
    expect(await sync()).toMatchObject({ status: 'completed', pages: 2, added: 230, skipped: 0 });
    const entry = (await auditStore.query({ tenant: 'acme', pageNumber: 1, pageSize: 1 })).items[0]!;
    expect(entry).toMatchObject({
      actionName: standIn.entries.at(-1)!.actionName,
      description: 'entry 230',
      sourceId: 230,
    });
    expect(entry.parameters).toEqual({ n: 230 });
  });

  it('waits as long as Retry-After says on 429, and backs off on 5xx and dropped connections mid-walk', async () => {
    await open();
    standIn.add(450, NOW - 450 * 60_000);
    standIn.faults.set(1, [{ kind: 'status', status: 429, retryAfter: '1' }]);
    standIn.faults.set(2, [
      { kind: 'status', status: 503 },
      { kind: 'destroy' },
      { kind: 'status', status: 500 },
    ]);
    const started = Date.now();
    const summary = await sync();
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(summary).toMatchObject({ status: 'completed', pages: 3, added: 450, retries: 4 });
  });

  it('stops after its attempts, keeps what it read, and the next sync resumes the same walk', async () => {
    await open();
    standIn.add(650, NOW - 650 * 60_000);
    standIn.faults.set(
      3,
      Array.from({ length: 3 }, () => ({ kind: 'status' as const, status: 502 })),
    );
    const stopped = await sync({ maxAttempts: 3 });
    expect(stopped).toMatchObject({ status: 'failed', pages: 2, added: 400 });
    expect(stopped.error).toMatch(
      /answered 502 to page 3\. Gave up after 3 attempts\. The next sync resumes/,
    );
    expect(await sources.get('acme')).toMatchObject({ interrupted: true, lastSync: { status: 'failed' } });
    expect(await synced()).toBe(400);

    // Meanwhile the tenant records more; the resumed walk keeps its pinned range, so pages do not shift.
    standIn.add(3, NOW + 5_000, 1_000);
    now = NOW + 60_000;
    standIn.requests.length = 0;
    const resumed = await sync();
    expect(resumed).toMatchObject({
      status: 'completed',
      resumed: true,
      pages: 2,
      added: 250,
      duplicates: 0,
    });
    expect(standIn.requests.map((q) => q.pagenumber)).toEqual(['3', '4']);
    expect(standIn.requests[0]!.enddatetimeutc).toBe(new Date(NOW).toISOString());
    expect(await synced()).toBe(650);
    // The three newer ones come with the next sync.
    expect(await sync()).toMatchObject({ status: 'completed', added: 3, resumed: false });
  });

  it('is interrupted by its signal between pages and resumes', async () => {
    await open();
    standIn.add(600, NOW - 600 * 60_000);
    const controller = new AbortController();
    const stopped = await sync({
      signal: controller.signal,
      onProgress: (progress) => {
        if (progress.pages === 1) controller.abort();
      },
    });
    expect(stopped).toMatchObject({ status: 'failed', pages: 1, added: 200 });
    expect(stopped.error).toMatch(/Interrupted/);
    const resumed = await sync();
    expect(resumed).toMatchObject({ status: 'completed', resumed: true, added: 400 });
    expect(await synced()).toBe(600);
  });

  it('refuses an answer that is not a page, and a token the tenant refuses, with a clear message', async () => {
    await open({ token: 'another-token' });
    standIn.add(3, NOW - 3 * 60_000);
    const refused = await sync();
    expect(refused.status).toBe('failed');
    expect(refused.error).toMatch(/refused the audit log request \(401\)/);
    expect(refused.error).not.toContain(TOKEN);
  });
});
