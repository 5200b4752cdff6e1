import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImportProgress, NewAuditEntry } from '../../../src-server/core/audit/audit-entry.js';
import { allIds, BASE_MS, entryAt, StoreFixture } from './helpers.js';
import { ENGINES } from '../../helpers/test-database.js';

describe.each(ENGINES)('importEntries on %s', (engine) => {
  let fixture: StoreFixture;
  beforeEach(async () => {
    fixture = await StoreFixture.create(engine);
  });
  afterEach(async () => {
    await fixture.dispose();
  });

  it('imports out-of-order entries and keeps list order, also merged with appended ones', async () => {
    const store = await fixture.openStore();
    await store.append(entryAt(BASE_MS + 5000, { parameters: { n: 'appended' } })); // id 1
    const result = await store.importEntries([
      entryAt(BASE_MS + 3000, { parameters: { n: 'a' } }), // 2
      entryAt(BASE_MS + 9000, { parameters: { n: 'b' } }), // 3
      entryAt(BASE_MS + 1000, { parameters: { n: 'c' } }), // 4
      entryAt(BASE_MS + 5000, { parameters: { n: 'd' } }), // 5
    ]);
    expect(result).toEqual({ read: 4, added: 4, duplicates: 0 });
    expect(await allIds(store)).toEqual([3, 5, 1, 2, 4]);
    await fixture.closeStore(store);
    expect(await allIds(await fixture.openStore())).toEqual([3, 5, 1, 2, 4]);
  });

  it('skips entries whose content already exists (idempotent), whatever the key order or timestamp spelling', async () => {
    const store = await fixture.openStore();
    const entries: NewAuditEntry[] = Array.from({ length: 50 }, (_, i) =>
      entryAt(BASE_MS + i * 1000, {
        parameters: { index: i, nested: { b: 1, a: [i, 'x'] } },
        userName: `user${i % 3}`,
      }),
    );
    expect(await store.importEntries(entries)).toEqual({ read: 50, added: 50, duplicates: 0 });
    const reordered = entries.map((entry) => ({
      ...entry,
      timestamp: entry.timestamp.replace('.000Z', 'Z'),
      parameters: {
        nested: { a: (entry.parameters['nested'] as { a: unknown }).a, b: 1 },
        index: entry.parameters['index'],
      },
      statusCode: 500,
    }));
    expect(await store.importEntries(reordered)).toEqual({ read: 50, added: 0, duplicates: 50 });
    // Duplicates inside one import are skipped too; a changed parameter is new content.
    const changed = { ...entries[0]!, parameters: { index: 0, nested: { b: 2, a: [0, 'x'] } } };
    expect(await store.importEntries([changed, changed])).toEqual({ read: 2, added: 1, duplicates: 1 });
    await fixture.closeStore(store);
    const reopened = await fixture.openStore();
    expect(await reopened.importEntries(entries)).toMatchObject({ added: 0, duplicates: 50 });
    expect(await reopened.count()).toBe(51);
  });

  it('accepts async iterables and reports progress about every 10,000 entries', async () => {
    const store = await fixture.openStore();
    // eslint-disable-next-line @typescript-eslint/require-await -- an async iterable is what is under test
    async function* source(): AsyncGenerator<NewAuditEntry> {
      for (let i = 0; i < 25_000; i++) yield entryAt(BASE_MS + i, { parameters: { i: i % 20_000 } });
    }
    const reports: ImportProgress[] = [];
    const result = await store.importEntries(source(), (progress) => reports.push(progress));
    expect(result).toEqual({ read: 25_000, added: 25_000, duplicates: 0 });
    expect(reports.map((r) => r.read)).toEqual([10_000, 20_000, 25_000]);
    expect(await store.count()).toBe(25_000);
  });

  it('stops with the position of an invalid entry; what came before stays imported', async () => {
    const store = await fixture.openStore();
    const entries = [
      entryAt(BASE_MS),
      { ...entryAt(BASE_MS + 1), timestamp: 'not a date' },
      entryAt(BASE_MS + 2),
    ];
    await expect(store.importEntries(entries)).rejects.toThrow(/entry 2: timestamp is not a valid date/);
    await store.flush();
    expect(await store.count()).toBe(1);
  });

  it('assigns unique ids that increase in commit order across appends and imports', async () => {
    const store = await fixture.openStore();
    const appended = store.append(entryAt(BASE_MS));
    const imported = store.importEntries([entryAt(BASE_MS + 1), entryAt(BASE_MS + 2)]);
    const later = store.append(entryAt(BASE_MS + 3));
    await Promise.all([appended, imported, later]);
    const ids = await allIds(store);
    expect(new Set(ids).size).toBe(4);
    expect((await later).id).toBeGreaterThan((await appended).id);
    expect(Math.max(...ids)).toBe(4);
  });
});
