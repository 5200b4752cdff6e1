import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewAuditEntry } from '../../../src-server/core/audit/audit-entry.js';
import type { Database } from '../../../src-server/core/storage/database.js';
import { BASE_MS, entryAt, StoreFixture } from './helpers.js';
import { ENGINES } from '../../helpers/test-database.js';

/** More than one import chunk (10,000 entries), so that a batch is split across two of them. */
const COUNT = 10_700;
const BATCH = 3_000;

/** Entries of every shape an import prepares apart: resources, agents, instances, documents SQLite must build. */
function entryNumber(i: number): NewAuditEntry {
  const kind = i % 5;
  return entryAt(BASE_MS + i * 1_000, {
    actionName: kind === 1 ? 'Agents.Start' : `Process.Step${i % 7}`,
    userName: i % 3 === 0 ? 'Alice' : `user${i % 11}`,
    parameters:
      kind === 2
        ? { ratio: 0.1 + i, note: `fraction ${i}` }
        : { processId: `p-${i % 13}`, flag: i % 2 === 0 },
    resources:
      kind === 3
        ? [
            { type: 'Api', id: `api-${i % 4}` },
            { type: 'Api', id: `api-${i % 4}` },
            { type: 'Role', id: 'r' },
          ]
        : [],
    category: kind === 1 ? 'agent' : 'general',
    ...(kind === 1 ? { agentGroup: { id: `g${i % 3}`, name: 'Group' } } : {}),
    ...(kind === 4 ? { instance: 'eu-1' } : {}),
  });
}

/** Everything an entry's write leaves in the database but the time it was written. */
async function written(database: Database) {
  const rows = async (table: string, order: string) =>
    (await sql.raw(`select * from ${table} order by ${order}`).execute(database.db)).rows;
  const entries = (await rows('audit_entries', 'id')).map((row) => ({
    ...(row as object),
    recorded_at: undefined,
  }));
  const words = ['p', 'fraction', 'true', 'api', '12'];
  const found =
    database.kind === 'sqlite'
      ? await Promise.all(
          words.map(
            async (word) =>
              (
                await sql<{
                  id: number;
                }>`select rowid as id from audit_search where audit_search match ${`${word}*`} order by rowid`.execute(
                  database.db,
                )
              ).rows,
          ),
        )
      : await rows('audit_terms', '1, 2, 3');
  return {
    entries,
    found,
    resources: await rows('audit_resources', 'entry_id, resource_type, resource_id'),
    heads: await rows('audit_chain_heads', 'tenant'),
    counts: await Promise.all(
      [
        ['audit_day_counts', 'tenant, day'],
        ['audit_hour_counts', 'tenant, hour'],
        ['audit_action_day_counts', 'tenant, action_key, day'],
        ['audit_user_day_counts', 'tenant, user_key, day'],
        ['audit_action_user_day_counts', 'tenant, action_key, user_key, day'],
        ['audit_action_hour_counts', 'tenant, action_key, hour'],
        ['audit_user_hour_counts', 'tenant, user_key, hour'],
      ].map(([table, order]) => rows(table!, order!)),
    ),
  };
}

describe.each(ENGINES)('an import on %s', (engine) => {
  const fixtures: StoreFixture[] = [];
  beforeEach(async () => {
    fixtures.push(await StoreFixture.create(engine), await StoreFixture.create(engine));
  });
  afterEach(async () => {
    for (const fixture of fixtures.splice(0)) await fixture.dispose();
  });

  it('writes what appending the same entries one by one writes, its batches split across chunks', async () => {
    const [appended, imported] = fixtures as [StoreFixture, StoreFixture];
    const entries = Array.from({ length: COUNT }, (_, i) => entryNumber(i));

    const appending = await appended.openStore();
    for (let start = 0; start < COUNT; start += 500)
      await Promise.all(entries.slice(start, start + 500).map((entry) => appending.append(entry)));
    await appended.closeStore(appending);

    // The same entries in batches, each also holding a copy of an entry before it: the copies are skipped.
    const importing = await imported.openStore();
    const batches: NewAuditEntry[][] = [];
    for (let start = 0; start < COUNT; start += BATCH)
      batches.push([...entries.slice(start, start + BATCH), entries[start]!]);
    // eslint-disable-next-line @typescript-eslint/require-await -- batches are what an async source yields
    async function* source() {
      yield* batches;
    }
    const result = await importing.importEntries(source());
    expect(result).toEqual({ read: COUNT + batches.length, added: COUNT, duplicates: batches.length });
    await imported.closeStore(importing);

    const [expected, actual] = [await appended.openDatabase(), await imported.openDatabase()];
    try {
      expect(await written(actual)).toEqual(await written(expected));
    } finally {
      await expected.close();
      await actual.close();
    }
  });
});
