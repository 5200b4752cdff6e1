import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditEntry, AuditQuery, NewAuditEntry } from '../../../src-server/core/audit/audit-entry.js';
import { ALL_TENANTS } from '../../../src-server/core/audit/audit-tenant.js';
import { ENGINES } from '../../helpers/test-database.js';
import { BASE_MS, DAY_MS, entryAt, referenceQuery, StoreFixture } from './helpers.js';

const HOUR_MS = 3_600_000;

/**
 * Three days, each with entries in a few of its hours (several at one instant, so the id breaks ties), of two
 * actions and two users: a numbered page starts in a whole day, in one of its hours, or in a partial day.
 */
function trail(shiftMs = 0): NewAuditEntry[] {
  const entries: NewAuditEntry[] = [];
  for (let day = 0; day < 3; day++) {
    for (const hour of [1, 2, 7, 13, 22]) {
      for (let k = 0; k < 4; k++) {
        const timeMs = BASE_MS + day * DAY_MS + hour * HOUR_MS + (k < 2 ? 0 : k * 60_000) + shiftMs;
        entries.push(
          entryAt(timeMs, {
            actionName: k % 2 === 0 ? 'Process.Deploy' : 'Role.Create',
            userName: (day + hour + k) % 3 === 0 ? 'alice' : 'Bob',
          }),
        );
      }
    }
  }
  return entries;
}

const FILTERS: Omit<AuditQuery, 'pageNumber' | 'pageSize'>[] = [
  {},
  { actionName: 'process.deploy' },
  { userName: 'BOB' },
  { actionName: 'Role.Create', userName: 'alice' },
  // Whole days between partial ones, and partial hours at both ends.
  { startMs: BASE_MS + 2 * HOUR_MS + 30 * 60_000, endMs: BASE_MS + 2 * DAY_MS + 13 * HOUR_MS + 90_000 },
  { actionName: 'Process.Deploy', startMs: BASE_MS + 5 * HOUR_MS },
  { userName: 'bob', endMs: BASE_MS + DAY_MS + 20 * HOUR_MS },
  // Past the end of the trail, and an empty range.
  { startMs: BASE_MS + 10 * DAY_MS },
  { startMs: BASE_MS + DAY_MS, endMs: BASE_MS + DAY_MS },
  // Every tenant: each hour's and day's counts summed over the tenants.
  { tenant: ALL_TENANTS },
  { tenant: ALL_TENANTS, actionName: 'Role.Create' },
  { tenant: ALL_TENANTS, userName: 'alice', startMs: BASE_MS + 3 * HOUR_MS },
];

describe.each(ENGINES)('numbered pages on %s', (engine) => {
  let fixture: StoreFixture;
  beforeEach(async () => {
    fixture = await StoreFixture.create(engine);
  });
  afterEach(async () => {
    await fixture.dispose();
  });

  it('hold the entries the list order puts there, whichever day and hour a page starts in', async () => {
    const store = await fixture.openStore();
    await store.importEntries(trail());
    // Another tenant's trail, its hours shared with the first's and half an hour later.
    await store.importEntries(trail(30 * 60_000), undefined, { tenant: 'other' });
    const own: AuditEntry[] = [];
    for await (const entry of store.iterate({})) own.push(entry);
    const every: AuditEntry[] = [];
    for await (const entry of store.iterate({ tenant: ALL_TENANTS })) every.push(entry);
    for (const filter of FILTERS) {
      const stored = filter.tenant === ALL_TENANTS ? every : own;
      for (const pageSize of [1, 3, 7]) {
        const { totalCount } = referenceQuery(stored, { ...filter, pageNumber: 1, pageSize });
        // Every page, and the one after the last.
        for (let pageNumber = 1; pageNumber <= Math.ceil(totalCount / pageSize) + 1; pageNumber++) {
          const query = { ...filter, pageNumber, pageSize };
          const page = await store.query(query);
          expect(
            { ids: page.items.map((e) => e.id), totalCount: page.totalCount },
            JSON.stringify(query),
          ).toEqual(referenceQuery(stored, query));
        }
      }
    }
    await fixture.closeStore(store);
  });
});
