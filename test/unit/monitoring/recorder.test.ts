import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../../src-server/core/logging/logger.js';
import { Monitoring } from '../../../src-server/core/monitoring/monitoring.js';
import type { NewMonitoringRecord } from '../../../src-server/core/monitoring/monitoring-record.js';
import { MonitoringRecorder } from '../../../src-server/core/monitoring/monitoring-recorder.js';
import { record, StoreFixture } from './helpers.js';

/** A logger whose lines the test can read. */
function capturingLogger(): { logger: ReturnType<typeof createLogger>; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger('info', stream), lines };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('MonitoringRecorder', () => {
  let fixture: StoreFixture;
  beforeEach(async () => {
    fixture = await StoreFixture.create('sqlite');
  });
  afterEach(async () => {
    await fixture.dispose();
  });

  it('under a flood keeps memory bounded, drops the oldest records and counts them', async () => {
    const { logger, lines } = capturingLogger();
    const capacity = 1_000;
    const monitoring = Monitoring.open({
      store: await fixture.openStore(),
      logger,
      recorder: { capacity, batchSize: 100_000, flushIntervalMs: 3_600_000 },
    });
    await monitoring.store();
    const flood = 300_000;
    const heapBefore = process.memoryUsage().heapUsed;
    // One synchronous burst: nothing can be flushed meanwhile, so the ring must hold the line by itself.
    for (let i = 0; i < flood; i++) {
      monitoring.record(record({ path: `/flood/${i}`, reason: String(i).padStart(1_000, 'x') }));
    }
    const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
    // 300,000 records of ~1 KiB would be ~300 MiB if they were kept.
    expect(heapGrowth).toBeLessThan(100 * 1024 * 1024);
    await monitoring.flush();
    const store = await monitoring.store();
    expect((await store.stats()).records).toBe(capacity);
    const kept = await store.query({ pageNumber: 1, pageSize: 500 });
    expect(kept.totalCount).toBe(capacity);
    // The newest survive: the oldest waiting records were the ones dropped.
    const keptPaths = new Set((await store.query({ pageNumber: 2, pageSize: 500 })).items.map((r) => r.path));
    for (const item of kept.items) keptPaths.add(item.path);
    for (let i = flood - capacity; i < flood; i++) expect(keptPaths.has(`/flood/${i}`)).toBe(true);
    const exposition = await monitoring.metrics.exposition();
    expect(exposition).toContain(
      `gatehouse_monitoring_dropped_records_total{reason="buffer_full"} ${flood - capacity}`,
    );
    expect(exposition).toMatch(new RegExp(`gatehouse_gateway_requests_total\\{[^}]*\\} ${flood}\\n`));
    await monitoring.close();
    const reports = lines.filter((line) => line.msg === 'API monitoring dropped records');
    expect(reports).toHaveLength(1);
    expect(reports[0]!.dropped).toEqual({ buffer_full: flood - capacity });
  });

  it('starts a flush once a batch is waiting, without waiting for the timer', async () => {
    const written: NewMonitoringRecord[][] = [];
    const recorder = new MonitoringRecorder({
      write: (records) => {
        written.push(records);
        return Promise.resolve(records.length);
      },
      logger: capturingLogger().logger,
      tuning: { batchSize: 10, flushIntervalMs: 3_600_000 },
    });
    for (let i = 0; i < 9; i++) recorder.record(record());
    await settle();
    expect(written).toHaveLength(0);
    recorder.record(record());
    await settle();
    expect(written.map((batch) => batch.length)).toEqual([10]);
    await recorder.close();
  });

  it('flushes what waits on the timer', async () => {
    const written: number[] = [];
    const recorder = new MonitoringRecorder({
      write: (records) => {
        written.push(records.length);
        return Promise.resolve(records.length);
      },
      logger: capturingLogger().logger,
      tuning: { batchSize: 1_000, flushIntervalMs: 10 },
    });
    recorder.record(record());
    await vi.waitFor(() => expect(written).toEqual([1]));
    await recorder.close();
  });

  it('counts records lost to a failing write, and those after close, and reports them once per interval', async () => {
    const { logger, lines } = capturingLogger();
    const drops: Record<string, number> = {};
    const recorder = new MonitoringRecorder({
      write: () => Promise.reject(new Error('disk full')),
      logger,
      tuning: { batchSize: 5, flushIntervalMs: 5, dropReportIntervalMs: 60_000 },
      onDrop: (reason, count) => {
        drops[reason] = (drops[reason] ?? 0) + count;
      },
    });
    for (let i = 0; i < 12; i++) recorder.record(record());
    await recorder.flush();
    for (let i = 0; i < 3; i++) recorder.record(record());
    await recorder.flush();
    await settle();
    await recorder.close();
    recorder.record(record());
    expect(drops).toEqual({ write_failed: 15, closed: 1 });
    const reports = lines.filter((line) => line.msg === 'API monitoring dropped records');
    // One report within the interval (the timer's), one more at close for what came after it.
    expect(reports.length).toBeLessThanOrEqual(2);
    expect(
      reports.reduce((sum, line) => sum + (line.dropped as Record<string, number>).write_failed!, 0),
    ).toBe(15);
    expect(reports[0]!.lastWriteError).toBe('disk full');
  });

  it('never throws from record(), even when observing a record fails', () => {
    const { logger, lines } = capturingLogger();
    const recorder = new MonitoringRecorder({
      write: (records) => Promise.resolve(records.length),
      logger,
      onRecord: () => {
        throw new Error('metrics broke');
      },
    });
    expect(() => {
      recorder.record(record());
      recorder.record(record());
    }).not.toThrow();
    expect(lines.filter((line) => line.msg === 'API monitoring failed to take a record')).toHaveLength(1);
    return recorder.close();
  });

  it('makes what was recorded readable after a flush, and refuses readers once closed', async () => {
    const monitoring = Monitoring.open({
      store: await fixture.openStore(),
      logger: capturingLogger().logger,
    });
    monitoring.record(record({ path: '/early' }));
    await monitoring.flush();
    const store = await monitoring.store();
    expect((await store.query({ pageNumber: 1, pageSize: 10 })).items.map((r) => r.path)).toEqual(['/early']);
    await monitoring.close();
    await expect(monitoring.store()).rejects.toThrow(/closed/);
  });
});
