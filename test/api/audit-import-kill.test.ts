import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, spawnCli } from '../helpers/cli-process.js';
import { tempDir } from '../helpers/temp-dir.js';
import { testEngine } from '../helpers/test-database.js';
import { SQLITE_FILE_NAME } from '../../src-server/core/storage/sqlite-engine.js';

/** Six of the import's chunks (10,000 entries each): the kill lands after the first commit, before the last. */
const ENTRIES = 60_000;
const ACTIONS = ['Role.Modify', 'Task.Import', 'Agent.Started', 'ProcessInstance.Acknowledge'];
const USERS = ['anna', 'ben', 'chen', 'dora', 'emil'];
const START_MS = Date.UTC(2026, 2, 1);

/** `lateEvery`: each such entry is dated a day earlier (out of time order: rows of `audit_time_disorder`). */
function ndjson(entries = ENTRIES, lateEvery = 0): string {
  const lines: string[] = [];
  for (let k = 0; k < entries; k++) {
    const late = lateEvery > 0 && k % lateEvery === lateEvery - 1;
    lines.push(
      JSON.stringify({
        actionName: ACTIONS[k % ACTIONS.length],
        userName: USERS[k % USERS.length],
        // About a minute apart: the trail spans several days and hours.
        timestamp: new Date(START_MS + k * 61_000 - (late ? 86_400_000 : 0)).toISOString(),
        parameters: { file: `report-${k}.csv`, note: k % 3 === 0 ? 'quarterly close' : 'routine' },
      }),
    );
  }
  return `${lines.join('\n')}\n`;
}

type Handle = InstanceType<typeof BetterSqlite3>;

function scalar(db: Handle, sql: string): number {
  return db.prepare<[], { n: number }>(sql).get()!.n;
}

/** Every one of `entries` imported (each third holds "quarterly"): rows, pair counts and search documents. */
function expectWholeTrail(db: Handle, entries: number): void {
  expect(scalar(db, 'select count(*) as n from audit_entries')).toBe(entries);
  expect(scalar(db, 'select sum(n) as n from audit_action_user_day_counts')).toBe(entries);
  expect(scalar(db, `select count(*) as n from audit_search where audit_search match 'quarterly'`)).toBe(
    entries / 3,
  );
}

/** The audit tables' indexes with their planner statistics, and triggers, by name. */
function auditIndexes(db: Handle): Record<string, string | null> {
  const rows = db
    .prepare<[], { name: string; stat: string | null }>(
      `select m.name, coalesce(s.stat, m.type) as stat from sqlite_master m left join sqlite_stat1 s on s.idx = m.name
       where m.type in ('index', 'trigger') and m.tbl_name in ('audit_entries', 'audit_resources') order by m.name`,
    )
    .all();
  return Object.fromEntries(rows.map((row) => [row.name, row.stat]));
}

/** Polls the data dir's file until `ready` says yes (null: not there or not migrated yet), while the child runs. */
async function waitFor(
  child: { exitCode: number | null },
  dataDir: string,
  ready: (db: Handle) => boolean,
): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error('the import ended before it was killed');
    try {
      const reader = new BetterSqlite3(join(dataDir, SQLITE_FILE_NAME), {
        readonly: true,
        fileMustExist: true,
      });
      try {
        if (ready(reader)) return;
      } finally {
        reader.close();
      }
    } catch {
      // Not created or not migrated yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Rows per key against the count table's sums per key: equal when the counts agree with the rows. */
function countsAgree(db: Handle, rowsPerKey: string, countsPerKey: string): void {
  const rows = db.prepare(rowsPerKey).all();
  const counts = db.prepare(countsPerKey).all();
  expect(counts).toEqual(rows);
}

// The embedded engine's file is read directly; PostgreSQL's own crash recovery is its server's.
describe.skipIf(testEngine() !== 'sqlite')(
  'gatehouse audit import killed mid-way',
  { timeout: 300_000 },
  () => {
    let dir: Awaited<ReturnType<typeof tempDir>>;
    let file: string;

    beforeAll(async () => {
      dir = await tempDir();
      file = join(dir.path, 'trail.ndjson');
      await writeFile(file, ndjson());
    });
    afterAll(async () => {
      await dir.remove();
    });

    it('leaves a committed prefix whose counts and search agree with its rows; importing again completes it', async () => {
      const dataDir = join(dir.path, 'data');
      const child = await spawnCli(['audit', 'import', file, '--data-dir', dataDir]);
      const exited = once(child, 'exit');
      let atKill = 0;
      await waitFor(child, dataDir, (db) => {
        atKill = scalar(db, 'select count(*) as n from audit_entries');
        return atKill > 0;
      });
      child.kill('SIGKILL');
      await exited;

      const db = new BetterSqlite3(join(dataDir, SQLITE_FILE_NAME));
      try {
        expect(db.pragma('quick_check', { simple: true })).toBe('ok');
        const stored = scalar(db, 'select count(*) as n from audit_entries');
        expect(stored).toBeGreaterThanOrEqual(atKill);
        expect(stored).toBeLessThan(ENTRIES);
        // Whole chunks: the first entries of the file, in order.
        expect(stored % 10_000).toBe(0);
        expect(scalar(db, 'select max(chain_seq) as n from audit_entries')).toBe(stored);
        expect(scalar(db, 'select sum(n) as n from audit_day_counts')).toBe(stored);
        expect(scalar(db, 'select sum(n) as n from audit_hour_counts')).toBe(stored);
        countsAgree(
          db,
          'select action_key as k, count(*) as n from audit_entries group by 1 order by 1',
          'select action_key as k, sum(n) as n from audit_action_day_counts group by 1 order by 1',
        );
        countsAgree(
          db,
          'select user_key as k, count(*) as n from audit_entries group by 1 order by 1',
          'select user_key as k, sum(n) as n from audit_user_hour_counts group by 1 order by 1',
        );
        expect(
          scalar(db, `select count(*) as n from audit_search where audit_search match 'quarterly'`),
        ).toBe(Math.ceil(stored / 3));
      } finally {
        db.close();
      }

      const again = await runCli(['audit', 'import', file, '--data-dir', dataDir]);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toMatch(new RegExp(`${ENTRIES} entries read, \\d+ added, \\d+ already present`));
      const [, added, present] = /(\d+) added, (\d+) already present/.exec(again.stdout)!;
      expect(Number(added) + Number(present)).toBe(ENTRIES);

      const verify = await runCli(['audit', 'verify', '--data-dir', dataDir]);
      expect(verify.code, verify.stdout + verify.stderr).toBe(0);
      const done = new BetterSqlite3(join(dataDir, SQLITE_FILE_NAME), { readonly: true });
      try {
        expectWholeTrail(done, ENTRIES);
        expect(scalar(done, 'select sum(n) as n from audit_day_counts')).toBe(ENTRIES);
      } finally {
        done.close();
      }
    });

    it('killed while indexes are deferred, leaves a file whose next open builds them again', async () => {
      // Past the import's threshold (50,000 entries into an empty trail), with chunks enough after it to kill in.
      const entries = 120_000;
      const bigFile = join(dir.path, 'big.ndjson');
      await writeFile(bigFile, ndjson(entries, 5_000));
      // Below the threshold: an import that keeps every index row by row.
      const smallFile = join(dir.path, 'small.ndjson');
      await writeFile(smallFile, ndjson(1_000));
      const reference = join(dir.path, 'reference');
      const small = await runCli(['audit', 'import', smallFile, '--data-dir', reference]);
      expect(small.code, small.stderr).toBe(0);
      const referenceDb = new BetterSqlite3(join(reference, SQLITE_FILE_NAME), { readonly: true });
      const indexes = auditIndexes(referenceDb);
      referenceDb.close();
      expect(Object.keys(indexes)).toEqual(
        expect.arrayContaining(['audit_entries_by_tenant_user', 'audit_time_disorder_late']),
      );

      const dataDir = join(dir.path, 'deferred');
      const child = await spawnCli(['audit', 'import', bigFile, '--data-dir', dataDir]);
      const exited = once(child, 'exit');
      await waitFor(
        child,
        dataDir,
        (db) => db.prepare(`select 1 from meta where key = 'deferred-indexes'`).get() !== undefined,
      );
      child.kill('SIGKILL');
      await exited;

      const db = new BetterSqlite3(join(dataDir, SQLITE_FILE_NAME), { readonly: true });
      try {
        expect(db.pragma('quick_check', { simple: true })).toBe('ok');
        const deferred = auditIndexes(db);
        for (const name of [
          'audit_entries_by_tenant_user',
          'audit_entries_by_time',
          'audit_entries_by_chain',
          'audit_time_disorder_late',
          'audit_time_disorder_low_id',
        ])
          expect(deferred).not.toHaveProperty(name);
      } finally {
        db.close();
      }

      // Any command that opens the data dir builds them (here one that writes no entry).
      const verify = await runCli(['audit', 'verify', '--data-dir', dataDir]);
      expect(verify.code, verify.stdout + verify.stderr).toBe(0);
      const repaired = new BetterSqlite3(join(dataDir, SQLITE_FILE_NAME), { readonly: true });
      try {
        expect(auditIndexes(repaired)).toEqual(indexes);
        expect(repaired.prepare(`select 1 from meta where key = 'deferred-indexes'`).get()).toBeUndefined();
        expect(repaired.pragma('integrity_check', { simple: true })).toBe('ok');
      } finally {
        repaired.close();
      }

      const again = await runCli(['audit', 'import', bigFile, '--data-dir', dataDir]);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toMatch(new RegExp(`${entries} entries read, \\d+ added`));
      const done = new BetterSqlite3(join(dataDir, SQLITE_FILE_NAME), { readonly: true });
      try {
        expect(auditIndexes(done)).toEqual(indexes);
        expect(done.pragma('integrity_check', { simple: true })).toBe('ok');
        expectWholeTrail(done, entries);
        // Each entry older than one before it lies in a stretch of time disorder with the newest of those.
        expect(scalar(done, 'select count(*) as n from audit_time_disorder')).toBeGreaterThan(0);
        expect(
          scalar(
            done,
            `select count(*) as n from (select time_ms, max(time_ms) over
                (order by id rows between unbounded preceding and 1 preceding) as newest from audit_entries) e
             where time_ms < newest
               and not exists (select 1 from audit_time_disorder d where d.lo_ms <= time_ms and d.hi_ms >= newest)`,
          ),
        ).toBe(0);
      } finally {
        done.close();
      }
    });
  },
);
