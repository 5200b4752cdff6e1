import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditStore, NewAuditEntry } from '../../../src-server/core/audit/audit-entry.js';
import { SqlAuditStore } from '../../../src-server/core/audit/sql/sql-audit-store.js';
import { listBackups } from '../../../src-server/core/backup/backup-catalog.js';
import { runHere, runInWorker } from '../../../src-server/core/backup/backup-jobs.js';
import { Backups } from '../../../src-server/core/backup/backups.js';
import { restore } from '../../../src-server/core/backup/restore.js';
import { ConfigStore } from '../../../src-server/core/config-store/config-store.js';
import { createLogger } from '../../../src-server/core/logging/logger.js';
import type { PolicyRecord } from '../../../src-server/core/model/config-model.js';
import type { NewMonitoringRecord } from '../../../src-server/core/monitoring/monitoring-record.js';
import { SqlMonitoringStore } from '../../../src-server/core/monitoring/sql/sql-monitoring-store.js';
import { Database } from '../../../src-server/core/storage/database.js';
import { ChainSigner } from '../../../src-server/core/audit/chain/chain-signer.js';
import { verifyStoredChain } from '../../../src-server/core/audit/chain/chain-verify-store.js';
import { generateKeyPairSync } from 'node:crypto';

/** Signs the removal records retention leaves (the tamper evidence must survive a restore). */
const chainSigner = ChainSigner.fromPem(
  generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
);
import { tempDir } from '../../helpers/temp-dir.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const logger = createLogger('silent');

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A clock the test moves: every store of a data dir stamps its writes and removals with it. */
class Clock {
  constructor(public ms: number) {}
  readonly now = () => this.ms;
  advance(ms: number): number {
    this.ms += ms;
    return this.ms;
  }
}

interface Stores {
  database: Database;
  config: ConfigStore;
  audit: AuditStore;
  monitoring: SqlMonitoringStore;
  close: () => Promise<void>;
}

async function openStores(dataDir: string, clock: Clock): Promise<Stores> {
  const database = await Database.open({ dataDir, logger });
  const config = await ConfigStore.open(database, () => new Date(clock.ms));
  const audit = new SqlAuditStore(database, clock.now);
  audit.chainSigner = chainSigner;
  const monitoring = new SqlMonitoringStore(database, clock.now);
  const close = async () => {
    await monitoring.close();
    await audit.close();
    await config.close();
    await database.close();
  };
  cleanups.push(close);
  return { database, config, audit, monitoring, close };
}

function entry(timeMs: number, actionName: string): NewAuditEntry {
  return {
    actionName,
    userName: 'alice',
    timestamp: new Date(timeMs).toISOString(),
    // A word of its own to search for: a restore must bring the full-text index along with the rows.
    parameters: { step: actionName.toLowerCase().replace('.', '') },
    resources: [],
    category: 'general',
  };
}

function request(timeMs: number, path: string): NewMonitoringRecord {
  return {
    time: new Date(timeMs).toISOString(),
    agentGroupId: 'default',
    agentGroupName: 'Default',
    method: 'GET',
    path,
    status: path.endsWith('fail') ? 502 : 200,
    durationMs: 10,
    bytesIn: 0,
    bytesOut: 10,
    outcome: 'forwarded',
    clientIp: '127.0.0.1',
  };
}

function policy(name: string): PolicyRecord {
  return { id: randomUUID(), name, agentGroupId: 'default' } as PolicyRecord;
}

/** What a restore must bring back, read through the stores. */
async function observe(stores: Stores, atMs: number) {
  const page = await stores.audit.query({ pageNumber: 1, pageSize: 100 });
  const monitoring = await stores.monitoring.query({ pageNumber: 1, pageSize: 100 });
  const summary = await stores.monitoring.summarize({
    filter: { startMs: atMs - 20 * DAY, endMs: atMs + DAY },
    intervalMs: HOUR,
  });
  // Whole days: from the daily roll-ups, which a restore sums again from the hours it counted again.
  const firstDay = Math.floor((atMs - 20 * DAY) / DAY) * DAY;
  const daily = await stores.monitoring.summarize({
    filter: { startMs: firstDay, endMs: firstDay + 22 * DAY },
    intervalMs: DAY,
  });
  return {
    policies: stores.config.data.policies.map((p) => p.name).sort(),
    tenant: stores.config.data.tenant.name,
    audit: page.items.map((item) => item.actionName).sort(),
    searched: await Promise.all(
      ['oldentry', 'beforemoment', 'aftermoment'].map(
        async (word) => (await stores.audit.query({ pageNumber: 1, pageSize: 10, search: word })).totalCount,
      ),
    ),
    auditTotal: page.totalCount,
    auditCount: await stores.audit.count(),
    facets: await stores.audit.facets(),
    monitoring: monitoring.items.map((item) => item.path).sort(),
    monitoringTotal: monitoring.totalCount,
    summary: { totals: summary.totals, buckets: summary.buckets.filter((bucket) => bucket.count > 0) },
    daily: { totals: daily.totals, buckets: daily.buckets.filter((bucket) => bucket.count > 0) },
  };
}

/**
 * A data dir with history on both sides of a moment T: before it, an old audit entry and old monitoring records
 * (which retention removes after T), a policy and a tenant name; after it, a new entry, new records, a renamed and
 * an added policy.
 */
async function dataDirAroundMoment(options: { backups: 'none' | 'full-after' | 'full-before-diff-after' }) {
  const dir = await tempDir();
  cleanups.push(dir.remove);
  const clock = new Clock(Date.now() - 20 * DAY);
  const stores = await openStores(dir.path, clock);
  const backups = new Backups({
    databaseFile: join(dir.path, 'gatehouse.db'),
    directory: join(dir.path, 'backups'),
    now: clock.now,
    run: runInWorker,
  });
  await stores.audit.append(entry(clock.ms, 'Old.Entry'));
  await stores.monitoring.append([request(clock.ms, '/old'), request(clock.ms + 1000, '/old-fail')]);
  await stores.config.update((data) => {
    data.policies.push(policy('first'));
  });
  clock.advance(10 * DAY);
  if (options.backups === 'full-before-diff-after') await backups.take();
  clock.advance(HOUR);
  await stores.audit.append(entry(clock.ms, 'Before.Moment'));
  await stores.monitoring.append([request(clock.ms, '/before')]);
  const moment = clock.advance(HOUR);
  const atMoment = await observe(stores, moment);

  clock.advance(HOUR);
  await stores.config.update((data) => {
    data.policies[0]!.name = 'renamed';
    data.policies.push(policy('added later'));
    data.tenant.name = 'Renamed tenant';
  });
  await stores.audit.append(entry(clock.ms, 'After.Moment'));
  await stores.monitoring.append([request(clock.ms, '/after')]);
  // Retention after the moment removes what is older than a week: the old entry and the old records.
  await stores.audit.applyRetention({
    now: clock.ms,
    maxAgeMs: 7 * DAY,
    agentWindow: 1000,
    isResourceLive: () => false,
  });
  await stores.monitoring.applyRetention({ now: clock.ms, maxAgeMs: 7 * DAY });
  clock.advance(HOUR);
  if (options.backups !== 'none') await backups.take();
  const after = await observe(stores, clock.ms);
  return { dir: dir.path, clock, stores, backups, moment, atMoment, after };
}

async function restoredInto(source: Awaited<ReturnType<typeof dataDirAroundMoment>>, atMs: number) {
  const into = await tempDir();
  cleanups.push(into.remove);
  const outcome = await restore({
    dataDir: source.dir,
    backupDirectory: join(source.dir, 'backups'),
    atMs,
    into: into.path,
    secretsKeyFile: join(source.dir, 'keys', 'secrets.key'),
    now: source.clock.now,
    logger,
    run: runHere,
  });
  const stores = await openStores(into.path, source.clock);
  return { outcome, stores, into: into.path };
}

describe('point-in-time restore of the embedded database', () => {
  it.each(['full-after', 'full-before-diff-after', 'none'] as const)(
    'rebuilds configuration, audit trail and monitoring as they stood (backups: %s)',
    async (backups) => {
      const source = await dataDirAroundMoment({ backups });
      // Sanity: the state changed after the moment.
      expect(source.after.audit).toEqual(['After.Moment', 'Before.Moment']);
      expect(source.after.policies).toEqual(['added later', 'renamed']);

      const { outcome, stores } = await restoredInto(source, source.moment);
      expect(outcome.backup === undefined).toBe(backups === 'none');
      if (backups === 'full-before-diff-after') expect(outcome.backup).toMatch(/-diff$/);
      const restored = await observe(stores, source.moment);
      expect(restored).toEqual(source.atMoment);
      // Written after the moment: absent. Removed by retention after it: back.
      expect(restored.audit).toEqual(['Before.Moment', 'Old.Entry']);
      expect(restored.searched).toEqual([1, 1, 0]);
      expect(restored.monitoring).toEqual(['/before', '/old', '/old-fail']);
      expect(restored.daily.totals.count).toBe(3);
      expect(restored.policies).toEqual(['first']);
      expect(restored.tenant).toBe('Local tenant');
      expect(outcome.audit).toEqual({ dropped: 1, returned: 1 });
      expect(outcome.monitoring).toEqual({ dropped: 1, returned: 2 });
      // The chain verifies before and after: the retention's removal record, then the restore taking it back.
      const before = await verifyStoredChain(source.stores.database, 'gatehouse', chainSigner.publicKey);
      expect(before).toMatchObject({ intact: true, entries: 2, removedByPolicy: 1 });
      const after = await verifyStoredChain(stores.database, 'gatehouse', chainSigner.publicKey);
      expect(after).toMatchObject({ intact: true, entries: 2, removedByPolicy: 0 });
    },
  );

  it('restores the latest state too, and the restored data dir works on (new writes, further restores)', async () => {
    const source = await dataDirAroundMoment({ backups: 'full-after' });
    const { stores } = await restoredInto(source, source.clock.ms);
    expect(await observe(stores, source.clock.ms)).toEqual(source.after);
    await stores.config.update((data) => {
      data.policies.push(policy('after the restore'));
    });
    await stores.audit.append(entry(source.clock.ms, 'After.Restore'));
    expect(stores.config.data.policies.map((p) => p.name).sort()).toEqual([
      'added later',
      'after the restore',
      'renamed',
    ]);
  });

  it('refuses a moment outside the window, and a target that holds a database', async () => {
    const source = await dataDirAroundMoment({ backups: 'full-after' });
    const into = await tempDir();
    cleanups.push(into.remove);
    const attempt = (atMs: number, target = into.path) =>
      restore({
        dataDir: source.dir,
        backupDirectory: join(source.dir, 'backups'),
        atMs,
        into: target,
        secretsKeyFile: join(source.dir, 'keys', 'secrets.key'),
        now: source.clock.now,
        logger,
        run: runHere,
      });
    await expect(attempt(source.clock.ms - 36 * DAY)).rejects.toThrow(/restorable window is from/);
    await expect(attempt(source.clock.ms + HOUR)).rejects.toThrow(/cannot be restored/);
    await attempt(source.moment);
    await expect(attempt(source.moment)).rejects.toThrow(/already holds a database/);
  });

  it('carries in a differential only what was written after its full backup, however recent', async () => {
    const dir = await tempDir();
    cleanups.push(dir.remove);
    const clock = new Clock(Date.now() - DAY);
    const stores = await openStores(dir.path, clock);
    const backups = new Backups({
      databaseFile: join(dir.path, 'gatehouse.db'),
      directory: join(dir.path, 'backups'),
      now: clock.now,
      run: runHere,
    });
    for (let i = 0; i < 50; i++) await stores.audit.append(entry(clock.ms, `Before.${i}`));
    await stores.monitoring.append([request(clock.ms, '/before')]);
    clock.advance(1000);
    await backups.take();
    clock.advance(1000);
    await stores.audit.append(entry(clock.ms, 'After.Full'));
    await stores.monitoring.append([request(clock.ms, '/after')]);
    const differential = await backups.take();
    const file = new BetterSqlite3(join(backups.directory, `${differential.name}.db`), { readonly: true });
    try {
      const rows = (sql: string) => file.prepare(sql).all() as { name?: string; path?: string }[];
      expect(rows("select json_extract(entry, '$.actionName') as name from audit_entries")).toEqual([
        { name: 'After.Full' },
      ]);
      expect(rows('select path from monitoring_records')).toEqual([{ path: '/after' }]);
    } finally {
      file.close();
    }
  });

  it('keeps full backups a week apart, differentials between, each a month, files owner-only', async () => {
    const dir = await tempDir();
    cleanups.push(dir.remove);
    const clock = new Clock(Date.now() - 60 * DAY);
    const stores = await openStores(dir.path, clock);
    const backups = new Backups({
      databaseFile: join(dir.path, 'gatehouse.db'),
      directory: join(dir.path, 'backups'),
      now: clock.now,
      run: runHere,
    });
    for (let day = 0; day < 45; day++) {
      await stores.audit.append(entry(clock.ms, `Day.${day}`));
      await backups.take();
      clock.advance(DAY);
    }
    const kept = await listBackups(backups.directory);
    const kinds = kept.map((backup) => backup.kind);
    // A month of daily backups, plus the full one the oldest differentials build on.
    expect(kept.length).toBeGreaterThanOrEqual(31);
    expect(kept.length).toBeLessThanOrEqual(38);
    expect(kinds.filter((kind) => kind === 'full').length).toBeGreaterThanOrEqual(5);
    for (const backup of kept.filter((b) => b.kind === 'differential')) {
      const base = kept.find((candidate) => candidate.name === backup.base);
      expect(base?.kind).toBe('full');
      expect(backup.takenAtMs - base!.takenAtMs).toBeLessThan(7 * DAY);
    }
    expect(clock.ms - kept[0]!.takenAtMs).toBeLessThan(31 * DAY + 7 * DAY);
    const differential = kept.find((backup) => backup.kind === 'differential')!;
    const full = kept.find((backup) => backup.kind === 'full')!;
    expect(differential.bytes).toBeLessThan(full.bytes);
    expect((await stat(backups.directory)).mode & 0o777).toBe(0o700);
    expect((await stat(join(backups.directory, `${full.name}.db`))).mode & 0o777).toBe(0o600);
    expect((await stat(join(backups.directory, `${full.name}.json`))).mode & 0o777).toBe(0o600);
    const window = await backups.window();
    expect(window?.toMs).toBe(clock.ms);
    expect(window?.fromMs).toBe(clock.ms - 35 * DAY);
  });
});
