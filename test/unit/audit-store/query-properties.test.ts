import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditEntry, AuditQuery, NewAuditEntry } from '../../../src-server/core/audit/audit-entry.js';
import { ENGINES } from '../../helpers/test-database.js';
import { BASE_MS, referenceFilter, referenceQuery, StoreFixture } from './helpers.js';

const ACTIONS = [
  'Process.Deploy',
  'process.deploy',
  'PROCESS.DEPLOY',
  'Role.Create',
  'Agent.Started',
  'User.Delete',
];
const USERS = ['alice', 'Alice', 'bob', 'system', 'Carol'];
const SPAN_MS = 20_000;

const INSTANCES = ['gw-a', 'gw-b', 'GW-A'];
const PROPERTY_TIMEOUT_MS = 180_000;

/** Entries at `steps` coarse steps of `stepMs`: lots of equal timestamps, so the id tie-break is exercised. */
function entryArbitrary(stepMs: number): fc.Arbitrary<NewAuditEntry> {
  return fc.record(
    {
      actionName: fc.constantFrom(...ACTIONS),
      userName: fc.constantFrom(...USERS),
      timestamp: fc
        .integer({ min: 0, max: 40 })
        .map((step) => new Date(BASE_MS + step * stepMs).toISOString()),
      parameters: fc.record({ n: fc.integer() }),
      resources: fc.constant([]),
      category: fc.constantFrom('general' as const, 'configuration' as const, 'agent' as const),
      instance: fc.constantFrom(...INSTANCES),
    },
    {
      requiredKeys: ['actionName', 'userName', 'timestamp', 'parameters', 'resources', 'category'],
    },
  );
}

/** A narrow range (20 s): every count is read from the rows of a partial day. */
const newEntry = entryArbitrary(500);
/** Steps of 7 hours over 12 days: whole days, counted from the per-day counts, or per instance from the rows. */
const DAYS_STEP_MS = 7 * 3_600_000;
const newEntryOverDays = entryArbitrary(DAYS_STEP_MS);

function queryArbitrary(spanMs: number): fc.Arbitrary<AuditQuery> {
  const margin = Math.max(1000, spanMs / 20);
  return fc.record(
    {
      startMs: fc.integer({ min: -margin, max: spanMs + margin }).map((offset) => BASE_MS + offset),
      endMs: fc.integer({ min: -margin, max: spanMs + margin }).map((offset) => BASE_MS + offset),
      actionName: fc.constantFrom(...ACTIONS, 'Missing.Action'),
      userName: fc.constantFrom(...USERS, 'nobody'),
      instance: fc.constantFrom(...INSTANCES, 'gw-c'),
      pageNumber: fc.integer({ min: 1, max: 6 }),
      pageSize: fc.integer({ min: 1, max: 12 }),
    },
    { requiredKeys: ['pageNumber', 'pageSize'] },
  );
}

const query = queryArbitrary(SPAN_MS);
const queryOverDays = queryArbitrary(40 * DAYS_STEP_MS);

describe.each(ENGINES)('query on %s against a reference implementation', (engine) => {
  let fixture: StoreFixture;
  beforeEach(async () => {
    fixture = await StoreFixture.create(engine);
  });
  afterEach(async () => {
    await fixture.dispose();
  });

  it.each([
    ['within a day', newEntry, query],
    ['over days', newEntryOverDays, queryOverDays],
  ] as const)(
    'matches filtering and sorting an array, for appended, imported and reopened stores (%s)',
    async (_, newEntry, query) => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(newEntry, { maxLength: 60 }),
          fc.array(newEntry, { maxLength: 60 }),
          fc.array(query, { minLength: 1, maxLength: 12 }),
          async (appended, imported, queries) => {
            await fixture.clear();
            const store = await fixture.openStore();
            const stored: AuditEntry[] = [];
            for (const entry of await Promise.all(appended.map((e) => store.append(e)))) stored.push(entry);
            await store.importEntries(imported);
            for await (const entry of store.iterate({})) if (entry.id > appended.length) stored.push(entry);

            const check = async (s: typeof store): Promise<void> => {
              expect(await s.count()).toBe(stored.length);
              for (const q of queries) {
                const page = await s.query(q);
                const expected = referenceQuery(stored, q);
                expect({ ids: page.items.map((e) => e.id), totalCount: page.totalCount }).toEqual(expected);
              }
              const everything = referenceFilter(stored, queries[0]!).map((e) => e.id);
              const iterated: number[] = [];
              for await (const entry of s.iterate(queries[0]!)) iterated.push(entry.id);
              expect(iterated).toEqual(everything);
            };
            await check(store);
            await fixture.closeStore(store);
            const reopened = await fixture.openStore();
            await check(reopened);
            await fixture.closeStore(reopened);
          },
        ),
        { numRuns: 40 },
      );
    },
    // CPU-bound: 40 runs of up to 120 entries and 12 queries, on a busy machine too. Only a hung test reaches it.
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'imports entries in any order and still lists them newest first',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.array(newEntry, { maxLength: 40 }), { maxLength: 4 }),
          async (batches) => {
            await fixture.clear();
            const store = await fixture.openStore();
            for (const batch of batches) await store.importEntries(batch);
            const ids: number[] = [];
            const times: number[] = [];
            for await (const entry of store.iterate({})) {
              ids.push(entry.id);
              times.push(Date.parse(entry.timestamp));
            }
            for (let i = 1; i < ids.length; i++) {
              expect(times[i - 1]! > times[i]! || (times[i - 1] === times[i] && ids[i - 1]! > ids[i]!)).toBe(
                true,
              );
            }
            await fixture.closeStore(store);
          },
        ),
        { numRuns: 30 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});
