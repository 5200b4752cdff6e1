import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../../src-server/core/logging/logger.js';
import { Monitoring } from '../../../src-server/core/monitoring/monitoring.js';
import { scheduleMonitoringRetention } from '../../../src-server/core/monitoring/retention-scheduler.js';
import { ENGINES } from '../../helpers/test-database.js';
import { BASE_MS, record, StoreFixture } from './helpers.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe.each(ENGINES)('monitoring retention on %s', (engine) => {
  let fixture: StoreFixture;
  beforeEach(async () => {
    fixture = await StoreFixture.create(engine);
  });
  afterEach(async () => {
    await fixture.dispose();
  });

  it('removes the whole hours before the cutoff; the summary and counts agree afterwards', async () => {
    const now = BASE_MS + 100 * HOUR + 30 * 60_000;
    const store = await fixture.openStore(() => now);
    for (let hour = 0; hour < 100; hour += 10) {
      await store.append(
        Array.from({ length: 10 }, (_, k) =>
          record({ time: new Date(BASE_MS + (hour + k) * HOUR + 1000).toISOString() }),
        ),
      );
    }
    // The cutoff (now − 40 h) falls in the middle of hour 60: that hour stays whole.
    const { removed } = await store.applyRetention({ now, maxAgeMs: 40 * HOUR });
    expect(removed).toBe(60);
    const page = await store.query({ pageNumber: 1, pageSize: 500 });
    expect(page.totalCount).toBe(40);
    expect(page.items.every((item) => Date.parse(item.time) >= BASE_MS + 60 * HOUR)).toBe(true);
    expect((await store.stats()).records).toBe(40);
    const summary = await store.summarize({ filter: { startMs: BASE_MS, endMs: now }, intervalMs: HOUR });
    expect(summary.totals.count).toBe(40);
    // Daily buckets come from the daily roll-ups: the cutoff's day keeps the roll-up of its remaining hours.
    const daily = await store.summarize({
      filter: { startMs: BASE_MS, endMs: BASE_MS + 5 * DAY },
      intervalMs: DAY,
    });
    expect(daily.buckets.map((bucket) => bucket.count)).toEqual([0, 0, 12, 24, 4]);
    expect(daily.totals).toEqual(summary.totals);
    expect((await store.applyRetention({ now, maxAgeMs: 40 * HOUR })).removed).toBe(0);
    for (const item of page.items) expect(await store.get(item.id)).toEqual(item);
    await fixture.closeStore(store);

    const reopened = await fixture.openStore(() => now);
    expect((await reopened.query({ pageNumber: 1, pageSize: 500 })).items).toEqual(page.items);
    // Ids are never reused.
    const [next] = await reopened.append([record({ time: new Date(now).toISOString() })]);
    expect(next!.id).toBe(101);
  });

  it('stops before its next batch once its signal is aborted; the summary still agrees with the records', async () => {
    const now = BASE_MS + 10 * DAY;
    const store = await fixture.openStore(() => now);
    await store.append([record({ time: new Date(BASE_MS).toISOString() })]);
    const stopping = new AbortController();
    stopping.abort();
    expect(await store.applyRetention({ now, maxAgeMs: DAY, signal: stopping.signal })).toEqual({
      removed: 0,
    });
    expect((await store.query({ pageNumber: 1, pageSize: 10 })).totalCount).toBe(1);
    const summary = await store.summarize({ filter: { startMs: BASE_MS, endMs: now }, intervalMs: HOUR });
    expect(summary.totals.count).toBe(1);
    expect(await store.applyRetention({ now, maxAgeMs: DAY })).toEqual({ removed: 1 });
  });

  it('keeps removed records, with the time of their removal, for the restore window', async () => {
    let clock = BASE_MS + 10 * DAY;
    const store = await fixture.openStore(() => clock);
    await store.append([
      record({ time: new Date(BASE_MS).toISOString() }),
      record({ time: new Date(clock).toISOString() }),
    ]);
    await store.applyRetention({ now: clock, maxAgeMs: DAY });
    const database = await fixture.openDatabase();
    try {
      const removed = await database.db
        .selectFrom('monitoring_records_removed')
        .select(['id', 'removed_at'])
        .execute();
      expect(removed.map((row) => [row.id, row.removed_at])).toEqual([[1, clock]]);
      clock += 36 * DAY;
      await store.applyRetention({ now: BASE_MS + 10 * DAY, maxAgeMs: DAY });
      expect(await database.db.selectFrom('monitoring_records_removed').select('id').execute()).toEqual([]);
    } finally {
      await database.close();
    }
  });

  it('moves a captured exchange with its record, and reads it back whole before that', async () => {
    const clock = BASE_MS + 10 * DAY;
    const store = await fixture.openStore(() => clock);
    const capture = {
      request: {
        method: 'POST',
        target: '/a?api_key=********',
        httpVersion: '1.1',
        headers: [{ name: 'Authorization', value: '********' }],
        body: { bytes: 5, contentType: 'text/plain', text: 'hello', binary: false, truncated: false },
      },
      response: { status: 204, headers: [], body: null },
      maxBodyBytes: 16_384,
    };
    const [stored] = await store.append([
      record({ time: new Date(BASE_MS).toISOString(), capture, viaAllOperations: true }),
    ]);
    expect(await store.get(stored!.id)).toMatchObject({ capture, viaAllOperations: true });
    // Lists stay small: the capture comes only with the single record.
    const [listed] = (await store.query({ pageNumber: 1, pageSize: 10 })).items;
    expect(listed).toMatchObject({ id: stored!.id, viaAllOperations: true });
    expect(listed!.capture).toBeUndefined();
    await store.applyRetention({ now: clock, maxAgeMs: DAY });
    expect(await store.get(stored!.id)).toBeUndefined();
    const database = await fixture.openDatabase();
    try {
      const removed = await database.db
        .selectFrom('monitoring_records_removed')
        .select(['id', 'capture', 'via_all_operations'])
        .execute();
      expect(removed).toHaveLength(1);
      expect(JSON.parse(removed[0]!.capture!)).toEqual(capture);
      expect(removed[0]!.via_all_operations).toBe(1);
    } finally {
      await database.close();
    }
  });

  it('runs at start and then on its interval, with the injected clock', async () => {
    const logger = createLogger('silent');
    const monitoring = Monitoring.open({ store: await fixture.openStore(), logger });
    let now = BASE_MS + 2 * DAY;
    for (const day of [0, 1, 2])
      monitoring.record(record({ time: new Date(BASE_MS + day * DAY).toISOString() }));
    await monitoring.flush();
    const stop = scheduleMonitoringRetention({
      monitoring,
      logger,
      now: () => new Date(now),
      retentionDays: 1,
      intervalMs: 20,
    });
    const store = await monitoring.store();
    // At start "now" is day 2: the day-0 record is more than one day old.
    await vi.waitFor(async () => expect((await store.stats()).records).toBe(2));
    now = BASE_MS + 4 * DAY;
    await vi.waitFor(async () => expect((await store.stats()).records).toBe(0));
    await stop();
    await monitoring.close();
  });
});
