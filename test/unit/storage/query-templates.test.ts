import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src-server/core/logging/logger.js';
import { Database } from '../../../src-server/core/storage/database.js';
import { runTemplated } from '../../../src-server/core/storage/query-templates.js';
import { tempDir } from '../../helpers/temp-dir.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function openWithDays(): Promise<Database> {
  const dir = await tempDir();
  cleanups.push(dir.remove);
  const database = await Database.open({ dataDir: dir.path, logger: createLogger('silent') });
  cleanups.push(() => database.close());
  await database.db
    .insertInto('audit_day_counts')
    .values([
      { tenant: 'a', day: 1, n: 10 },
      { tenant: 'a', day: 2, n: 20 },
      { tenant: 'a', day: 3, n: 30 },
      { tenant: 'b', day: 2, n: 5 },
    ])
    .execute();
  return database;
}

interface DaysPlan {
  tenant: string;
  from?: number;
  limit: number;
}

/** The days of a tenant from a day on, newest first: the statement's shape follows whether `from` is set. */
function days(database: Database, plan: DaysPlan) {
  return runTemplated(database.db, 'test-days', plan, (slots) =>
    database.db
      .selectFrom('audit_day_counts')
      .select(['day', 'n'])
      .where('tenant', '=', slots.tenant)
      .$if(slots.from !== undefined, (q) => q.where('day', '>=', slots.from!))
      .orderBy('day', 'desc')
      .limit(slots.limit),
  );
}

describe('runTemplated', () => {
  it('runs each query with its own values, whichever query of its shape was built first', async () => {
    const database = await openWithDays();
    expect(await days(database, { tenant: 'a', limit: 2 })).toEqual([
      { day: 3, n: 30 },
      { day: 2, n: 20 },
    ]);
    expect(await days(database, { tenant: 'b', limit: 5 })).toEqual([{ day: 2, n: 5 }]);
    expect(await days(database, { tenant: 'a', from: 2, limit: 5 })).toEqual([
      { day: 3, n: 30 },
      { day: 2, n: 20 },
    ]);
    expect(await days(database, { tenant: 'a', from: 3, limit: 5 })).toEqual([{ day: 3, n: 30 }]);
    expect(await days(database, { tenant: 'a', limit: 5 })).toHaveLength(3);
  });

  it('keeps values the builder fixed in the statement', async () => {
    const database = await openWithDays();
    const run = (tenant: string) =>
      runTemplated(database.db, 'test-fixed-day', { tenant }, (slots) =>
        database.db
          .selectFrom('audit_day_counts')
          .select('n')
          .where('tenant', '=', slots.tenant)
          .where('day', '=', 2),
      );
    expect(await run('a')).toEqual([{ n: 20 }]);
    expect(await run('b')).toEqual([{ n: 5 }]);
  });

  it('refuses a builder that computes with a value of the plan rather than passing it on', async () => {
    const database = await openWithDays();
    await expect(
      runTemplated(database.db, 'test-inlined', { tenant: 'a', day: 2 }, (slots) =>
        database.db
          .selectFrom('audit_day_counts')
          .select('n')
          .where('tenant', '=', slots.tenant)
          .where('day', '=', slots.day + 1),
      ),
    ).rejects.toThrow(/not a parameter/);
  });
});
