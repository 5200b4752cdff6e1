/**
 * bench:large-bodies — the gateway's memory while it streams a 1 GiB upload, then a 1 GiB download (issue 12's
 * target: RSS growth ≤ 50 MB). Gatehouse runs in its own process (test/api/gateway/fixtures/gateway-process.ts:
 * one public `All operations` passthrough to a local target) and reports its RSS every 50 ms; the growth is the
 * peak during each transfer over the RSS after a warm-up (32 MiB each way) and a pause that lets the start-up's
 * background threads (integrity check, monitoring writer) come up first.
 *
 *   npm run bench:large-bodies -- [--rounds 3] [--mib 1024]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import {
  startMeasuredGateway,
  startSink,
  transferThrough,
} from '../test/api/gateway/fixtures/large-transfer.js';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '3' }, mib: { type: 'string', default: '1024' } },
});
const rounds = Math.max(1, Number(values.rounds));
const bytes = Number(values.mib) * 1024 * 1024;
const mb = (value: number) => (value / 1024 / 1024).toFixed(1);

const sink = await startSink();
const gateway = await startMeasuredGateway(sink);
const transfer = (path: string, uploadBytes: number) => transferThrough(gateway.url, path, uploadBytes);
const warm = 32 * 1024 * 1024;
await transfer('/big/up', warm);
await transfer(`/big/down?bytes=${warm}`, 0);
await new Promise((resolve) => setTimeout(resolve, 2_000));

console.log(
  `bench:large-bodies — ${new Date().toISOString()}, Node ${process.version}, load average ${loadavg()[0]!.toFixed(1)}`,
);
console.log(`\nCommand: \`npm run bench:large-bodies -- --rounds ${rounds} --mib ${values.mib}\`\n`);
console.log('| round | transfer | MiB/s | RSS before, MB | peak RSS growth, MB (target ≤ 50) |');
console.log('|---:|---|---:|---:|---:|');
const growths: number[] = [];
for (let round = 1; round <= rounds; round++) {
  for (const [label, path, upload] of [
    ['upload', '/big/up', bytes],
    ['download', `/big/down?bytes=${bytes}`, 0],
  ] as const) {
    const before = gateway.rss();
    gateway.resetPeak();
    const started = performance.now();
    const result = await transfer(path, upload);
    const seconds = (performance.now() - started) / 1000;
    const moved = upload > 0 ? Number(result.body) : result.received;
    if (result.status !== 200 || moved !== bytes)
      throw new Error(`${label}: status ${result.status}, ${moved} of ${bytes} bytes`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const growth = gateway.peak() - before;
    growths.push(growth);
    console.log(
      `| ${round} | ${label} | ${(bytes / 1024 / 1024 / seconds).toFixed(0)} | ${mb(before)} | ${mb(growth)} |`,
    );
  }
}
console.log(
  `\nLargest growth: ${mb(Math.max(...growths))} MB; load average ${loadavg()[0]!.toFixed(1)} at the end.`,
);
await gateway.stop();
sink.close();
