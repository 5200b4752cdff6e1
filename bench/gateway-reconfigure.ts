/**
 * A configuration write while the gateway serves a large configuration:
 *
 *   npm run bench:reconfigure [-- --operations 65000 --writes 10 --connections 10 --duration 20]
 *
 * Gatehouse (bundled, its own process) holds two APIs of N operations each, every operation with its own
 * passthrough entry, besides the bench:proxy routes. wrk loads the plain route; meanwhile the management API
 * creates environments (a write unrelated to any passthrough), one a second. Reported: each write's response
 * time, the gateway's p50/p99 over a run with writes next to one without, and the RSS of the process.
 */
import { parseArgs } from 'node:util';
import { processRss, startChild, stopChildren } from './lib/bench-children.js';
import { requireWrk, runWrk, type WrkResult } from './lib/wrk.js';

const { values: args } = parseArgs({
  options: {
    operations: { type: 'string', default: '65000' },
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
  ]);
  const startMs = performance.now() - started;
  const rssStart = processRss(gatehouse.pid);
  const load = {
    url: `http://127.0.0.1:${String(gatehouse.port)}/large-b/r${Number(args.operations) - 1}/items/42`,
    headers: {},
    connections: Number(args.connections),
  };
  const probe = await fetch(load.url);
  await probe.arrayBuffer();
  if (probe.status !== 200) throw new Error(`the large API's route answered ${probe.status}`);

  await runWrk({ ...load, seconds: 3 });
  const quiet = await runWrk({ ...load, seconds: Number(args.duration) });
  const during = runWrk({ ...load, seconds: Number(args.duration) });
  const writeMs: number[] = [];
  let peakRss = 0;
  await sleep(2_000);
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
  const loaded = await during;

  const sorted = [...writeMs].sort((a, b) => a - b);
  const mb = (bytes: number | undefined) =>
    bytes === undefined ? '—' : `${Math.round(bytes / 1024 / 1024)} MB`;
  console.log(
    `\nCommand: npm run bench:reconfigure -- --operations ${args.operations} --writes ${args.writes} ` +
      `--connections ${args.connections} --duration ${args.duration} (Node ${process.version})\n`,
  );
  console.log(
    `Start with 2 × ${args.operations} operations: ${(startMs / 1000).toFixed(1)} s, RSS ${mb(rssStart)}`,
  );
  console.log(
    `Unrelated write (POST /api/v1/environments), ${writeMs.length} of them: ` +
      `median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms ` +
      `(target ≤ 100 ms); peak RSS ${mb(peakRss)}\n`,
  );
  console.log('| gateway under wrk | req/s | p50 ms | p99 ms | errors |');
  console.log('|---|---:|---:|---:|---:|');
  const row = (name: string, result: WrkResult) =>
    console.log(
      `| ${name} | ${Math.round(result.requestsPerSecond)} | ${result.p50.toFixed(2)} | ${result.p99.toFixed(2)} | ${result.errors + result.non2xx} |`,
    );
  row('no writes', quiet);
  row(`${writeMs.length} writes during the run`, loaded);
  console.log(`\nGateway p99 during the writes: ${loaded.p99.toFixed(2)} ms (target ≤ 20 ms)`);
} finally {
  stopChildren();
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
