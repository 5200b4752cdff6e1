import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../../src-server/core/logging/logger.js';
import { Monitoring } from '../../../src-server/core/monitoring/monitoring.js';
import { scheduleMonitoringRetention } from '../../../src-server/core/monitoring/retention-scheduler.js';
import { BASE_MS, record, StoreFixture } from './helpers.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

async function segmentFiles(dir: string): Promise<string[]> {
  return (await readdir(join(dir, 'log'))).filter((name) => name.endsWith('.seg')).sort();
}

describe('monitoring retention', () => {
  let fixture: StoreFixture;
  beforeEach(async () => {
    fixture = await StoreFixture.create();
  });
  afterEach(async () => {
    await fixture.dispose();
  });

  it('removes records older than the cutoff and deletes the segments they leave empty', async () => {
    const dir = fixture.nextDir();
    const store = await fixture.openStore(dir, { segmentMaxBytes: 4096 });
    // 100 hourly records, in batches so they spread over many small segments.
    for (let hour = 0; hour < 100; hour += 10) {
      await store.append(
        Array.from({ length: 10 }, (_, k) =>
          record({ time: new Date(BASE_MS + (hour + k) * HOUR).toISOString() }),
        ),
      );
    }
    const before = await segmentFiles(dir);
    expect(before.length).toBeGreaterThan(3);
    const now = BASE_MS + 100 * HOUR;
    const { removed } = await store.applyRetention({ now, maxAgeMs: 40 * HOUR });
    expect(removed).toBe(60);
    const page = await store.query({ pageNumber: 1, pageSize: 500 });
    expect(page.totalCount).toBe(40);
    expect(page.items.every((item) => Date.parse(item.time) >= now - 40 * HOUR)).toBe(true);
    const after = await segmentFiles(dir);
    expect(after.length).toBeLessThan(before.length);
    expect(store.stats().bytes).toBeLessThan(before.length * 4096);
    // A second run finds nothing more to do; the records still read back whole.
    expect((await store.applyRetention({ now, maxAgeMs: 40 * HOUR })).removed).toBe(0);
    for (const item of page.items) expect(await store.get(item.id)).toEqual(item);
    await store.close();

    // Reopening replays what is left: the expired records of a partly expired segment come back until the
    // next retention run (the server runs one before serving readers).
    const reopened = await fixture.openStore(dir, { segmentMaxBytes: 4096 });
    await reopened.applyRetention({ now, maxAgeMs: 40 * HOUR });
    expect((await reopened.query({ pageNumber: 1, pageSize: 500 })).items).toEqual(page.items);
    // New ids continue after the highest one, even though old segments are gone.
    const [next] = await reopened.append([record({ time: new Date(now).toISOString() })]);
    expect(next!.id).toBe(101);
  });

  it('never deletes a segment holding records of a batch still being written', async () => {
    const dir = fixture.nextDir();
    const store = await fixture.openStore(dir, { segmentMaxBytes: 2048 });
    await store.append(Array.from({ length: 30 }, () => record({ time: new Date(BASE_MS).toISOString() })));
    // Blocks of this batch are bigger than a segment: writing it seals segment after segment, and its records
    // join the index only when the whole batch is durable.
    const fresh = (i: number) =>
      record({ time: new Date(BASE_MS + 10 * DAY).toISOString(), path: `/fresh/${i}` });
    const writing = store.append(Array.from({ length: 400 }, (_, i) => fresh(i)));
    // Retention starts once the batch has sealed a segment of its own: segment 2 is sealed for sure once
    // segment 4's file exists (a new file appears a moment before the log switches to it).
    while ((await segmentFiles(dir)).length < 4) await new Promise((resolve) => setImmediate(resolve));
    await Promise.all([writing, store.applyRetention({ now: BASE_MS + 10 * DAY, maxAgeMs: DAY })]);
    const page = await store.query({ pageNumber: 1, pageSize: 500 });
    expect(page.totalCount).toBe(400);
    for (const item of page.items) expect(await store.get(item.id)).toEqual(item);
  });

  it('runs at start and then on its interval, with the injected clock', async () => {
    const logger = createLogger('silent');
    const monitoring = Monitoring.open({ dir: fixture.nextDir(), logger });
    let now = BASE_MS + 2 * DAY;
    for (const day of [0, 1, 2])
      monitoring.record(record({ time: new Date(BASE_MS + day * DAY).toISOString() }));
    // Retention asked for before readers get the store: the first reader already sees the result.
    const stop = scheduleMonitoringRetention({
      monitoring,
      logger,
      now: () => new Date(now),
      retentionDays: 1,
      intervalMs: 20,
    });
    await monitoring.flush();
    const store = await monitoring.store();
    // At start "now" is day 2: the day-0 record is more than one day old.
    await vi.waitFor(() => expect(store.stats().records).toBe(2));
    now = BASE_MS + 3 * DAY + 1;
    await vi.waitFor(() => expect(store.stats().records).toBe(0));
    await stop();
    await monitoring.close();
  });

  it('hides expired records from the first reader after a restart', async () => {
    const logger = createLogger('silent');
    const dir = fixture.nextDir();
    const first = Monitoring.open({ dir, logger });
    first.record(record({ time: new Date(BASE_MS).toISOString(), path: '/old' }));
    first.record(record({ time: new Date(BASE_MS + 5 * DAY).toISOString(), path: '/new' }));
    await first.close();
    const second = Monitoring.open({ dir, logger });
    const stop = scheduleMonitoringRetention({
      monitoring: second,
      logger,
      now: () => new Date(BASE_MS + 5 * DAY),
      retentionDays: 2,
    });
    const store = await second.store();
    expect((await store.query({ pageNumber: 1, pageSize: 10 })).items.map((item) => item.path)).toEqual([
      '/new',
    ]);
    await stop();
    await second.close();
  });
});
