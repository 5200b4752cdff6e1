import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { record } from '../../unit/monitoring/helpers.js';
import { getJson, type ListPage } from './helpers.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-05-20T08:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

describe('API monitoring across restarts', () => {
  let dir: { path: string; remove: () => Promise<void> };
  let server: TestServer | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
    await dir.remove();
  });

  const start = async (now: number, settings: Record<string, number> = {}) => {
    server = await startTestServer({
      dataDir: dir.path,
      keepDataDir: true,
      now: () => new Date(now),
      settings,
    });
    return server;
  };
  const stop = async () => {
    await server!.close();
    server = undefined;
  };
  const list = (s: TestServer, search = '') => getJson<ListPage>(s, `/api/v1/monitoring/requests${search}`);

  it('keeps records across a restart; a clean close writes what was still waiting', async () => {
    dir = await tempDir('gatehouse-monitoring-restart-');
    const first = await start(NOW);
    for (let i = 0; i < 5; i++)
      first.gatehouse.monitoring.record(record({ time: iso(NOW - i * 1000), path: `/a/${i}` }));
    await first.gatehouse.monitoring.flush();
    // Recorded and not flushed: the close must still make these durable.
    for (let i = 5; i < 8; i++)
      first.gatehouse.monitoring.record(record({ time: iso(NOW - i * 1000), path: `/a/${i}` }));
    const before = (await (await first.gatehouse.monitoring.store()).stats()).records;
    expect(before).toBe(5);
    await stop();

    const second = await start(NOW);
    const page = await list(second, '?PageSize=100');
    expect(page.data.map((r) => r.path)).toEqual(Array.from({ length: 8 }, (_, i) => `/a/${i}`));
    expect(page.data.map((r) => r.id).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // Ids keep increasing after the restart.
    second.gatehouse.monitoring.record(record({ time: iso(NOW + 1000), path: '/b' }));
    await second.gatehouse.monitoring.flush();
    expect((await list(second, '?path=/b')).data[0]!.id).toBe(9);
  });

  it('removes records older than Monitoring:RetentionDays at start, by the injected clock', async () => {
    dir = await tempDir('gatehouse-monitoring-retention-');
    const first = await start(NOW);
    for (const age of [1, 10, 59, 61, 90]) {
      first.gatehouse.monitoring.record(record({ time: iso(NOW - age * DAY), path: `/age/${age}` }));
    }
    await first.gatehouse.monitoring.flush();
    // Retention ran at start, before these arrived; the next run is an hour away.
    expect((await list(first)).paging.totalCount).toBe(5);
    await stop();

    // The default period is 60 days: the start drops the two older records before anyone can read them.
    const second = await start(NOW);
    expect((await list(second)).data.map((r) => r.path)).toEqual(['/age/1', '/age/10', '/age/59']);
    await stop();

    // Twenty days later with a 30-day period: the cutoff is 10 days before the first "now" (inclusive).
    const third = await start(NOW + 20 * DAY, { 'Monitoring:RetentionDays': 30 });
    expect((await list(third)).data.map((r) => r.path)).toEqual(['/age/1', '/age/10']);
  });
});
