/**
 * A configuration write while the gateway serves a large configuration:
 *
 *   npm run bench:reconfigure [-- --operations 65000 --entry-every 64 --writes 10 --connections 10 --duration 20]
 *
 * Gatehouse (bundled, its own process) holds two APIs of N operations each, each with an `All operations` entry
 * and every K-th operation with its own entry, besides the bench:proxy routes. wrk loads the last operation of
 * the second API; meanwhile the management API creates environments (a write unrelated to any passthrough), one a
 * second, while a probe sends one request at a time to the gateway and times each (wrk's percentiles leave out
 * requests still waiting when it stops, so a stall would not show there). Reported: each write's response time and
 * the part of it the gateway's runtime update took, the probe's latencies during the writes, wrk's figures with and
 * without writes, and the RSS of the process.
 */
import { parseArgs } from 'node:util';
import { processRss, startChild, stopChildren } from './lib/bench-children.js';
import { Prober } from './lib/prober.js';
import { percentile } from './lib/stats.js';
import { requireWrk, runWrk, type WrkResult } from './lib/wrk.js';

const { values: args } = parseArgs({
  options: {
    operations: { type: 'string', default: '65000' },
    'entry-every': { type: 'string', default: '64' },
    writes: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    duration: { type: 'string', default: '20' },
  },
});

requireWrk();
try {
  const upstream = await startChild('bench/lib/proxy-upstream.ts');
  const origin = `http://127.0.0.1:${String(upstream.port)}`;
  const started = performance.now();
  const gatehouse = await startChild('bench/lib/gatehouse-proxy.ts', [
    origin,
    '--operations',
    args.operations,
    '--entry-every',
    args['entry-every'],
  ]);
  const startMs = performance.now() - started;
  const rssStart = processRss(gatehouse.pid);
  const path = `/large-b/r${Number(args.operations) - 1}/items/42`;
  const load = {
    url: `http://127.0.0.1:${String(gatehouse.port)}${path}`,
    headers: {},
    connections: Number(args.connections),
  };
  const probe = new Prober(Number(gatehouse.port), path);
  if ((await probe.once()).status !== 200) throw new Error('the large API route does not answer 200');

  await runWrk({ ...load, seconds: 3 });
  const quiet = await runWrk({ ...load, seconds: Number(args.duration) });
  const during = runWrk({ ...load, seconds: Number(args.duration) });
  await sleep(2_000);
  const probing = probe.run();
  const writeMs: number[] = [];
  let peakRss = 0;
  for (let index = 0; index < Number(args.writes); index++) {
    const begin = performance.now();
    const response = await fetch(`${String(gatehouse.controlPanel)}/api/v1/environments`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${String(gatehouse.token)}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: `Bench environment ${index} ${Date.now()}` }),
    });
    await response.arrayBuffer();
    writeMs.push(performance.now() - begin);
    if (response.status !== 201) throw new Error(`creating an environment answered ${response.status}`);
    peakRss = Math.max(peakRss, processRss(gatehouse.pid) ?? 0);
    await sleep(1_000);
  }
  probe.stop();
  const probed = await probing;
  const loaded = await during;
  const applyMs = gatehouse.lines
    .map((line) => (JSON.parse(line) as { applyMs?: number }).applyMs)
    .filter((ms): ms is number => ms !== undefined)
    .slice(-writeMs.length);

  const sorted = [...writeMs].sort((a, b) => a - b);
  const mb = (bytes: number | undefined) =>
    bytes === undefined ? '—' : `${Math.round(bytes / 1024 / 1024)} MB`;
  console.log(
    `\nCommand: npm run bench:reconfigure -- --operations ${args.operations} --entry-every ${args['entry-every']} ` +
      `--writes ${args.writes} --connections ${args.connections} --duration ${args.duration} (Node ${process.version})\n`,
  );
  console.log(
    `Start with 2 × ${args.operations} operations: ${(startMs / 1000).toFixed(1)} s, RSS ${mb(rssStart)}`,
  );
  console.log(
    `Unrelated write (POST /api/v1/environments), ${writeMs.length} of them: ` +
      `median ${percentile(sorted, 50).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms ` +
      `(target ≤ 100 ms); peak RSS ${mb(peakRss)}`,
  );
  console.log(
    `Of which the gateway's runtime update: ${applyMs.map((ms) => ms.toFixed(1)).join(', ')} ms ` +
      '(the rest is the configuration store: its snapshot and its file)',
  );
  const latencies = [...probed].sort((a, b) => a - b);
  console.log(
    `Probe during the writes (${latencies.length} sequential requests): p50 ${percentile(latencies, 50).toFixed(2)} ms, ` +
      `p99 ${percentile(latencies, 99).toFixed(2)} ms (target ≤ 20 ms), max ${latencies.at(-1)!.toFixed(1)} ms\n`,
  );
  console.log('| gateway under wrk | req/s | p50 ms | p99 ms | errors |');
  console.log('|---|---:|---:|---:|---:|');
  const row = (name: string, result: WrkResult) =>
    console.log(
      `| ${name} | ${Math.round(result.requestsPerSecond)} | ${result.p50.toFixed(2)} | ${result.p99.toFixed(2)} | ${result.errors + result.non2xx} |`,
    );
  row('no writes', quiet);
  row('writes during the run', loaded);
} finally {
  stopChildren();
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
