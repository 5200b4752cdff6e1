/**
 * Load from wrk (Debian's `wrk`, C and epoll: one thread drives far more requests than any Node load generator on
 * the same cores). The summary comes from a Lua `done` hook as one JSON line, latencies in microseconds.
 */
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface WrkResult {
  requests: number;
  requestsPerSecond: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
  /** Socket errors (connect, read, write, timeout) and non-2xx/3xx answers. */
  errors: number;
  non2xx: number;
}

export interface WrkLoad {
  url: string;
  headers: Record<string, string>;
  connections: number;
  threads?: number;
  seconds: number;
}

const REPORT_SCRIPT = `
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK-JSON {"requests":%d,"durationUs":%d,"errors":%d,"non2xx":%d,"p50":%d,"p99":%d}\\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(99)))
end
`;

let scriptPath: string | undefined;

/** Fails with a clear message when wrk is not installed (Debian/Ubuntu: `apt-get install wrk`). */
export function requireWrk(): void {
  const probe = spawnSync('wrk', ['--version'], { encoding: 'utf8' });
  if (probe.error && (probe.error as NodeJS.ErrnoException).code === 'ENOENT') {
    console.error(
      'wrk is not installed: this benchmark drives its load with wrk (Debian/Ubuntu: apt-get install wrk; ' +
        'macOS: brew install wrk). Node load generators saturate before the proxies do and would measure themselves.',
    );
    process.exit(2);
  }
}

export function runWrk(load: WrkLoad): Promise<WrkResult> {
  scriptPath ??= writeScript();
  const headerArgs = Object.entries(load.headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const child = spawn(
    'wrk',
    [
      '-t',
      String(load.threads ?? 1),
      '-c',
      String(load.connections),
      '-d',
      `${load.seconds}s`,
      '--timeout',
      '5s',
      '-s',
      scriptPath,
      ...headerArgs,
      load.url,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      const line = output.split('\n').find((text) => text.startsWith('WRK-JSON '));
      if (code !== 0 || !line) {
        reject(new Error(`wrk exited with ${code}:\n${output}`));
        return;
      }
      const report = JSON.parse(line.slice('WRK-JSON '.length)) as {
        requests: number;
        durationUs: number;
        errors: number;
        non2xx: number;
        p50: number;
        p99: number;
      };
      resolve({
        requests: report.requests,
        requestsPerSecond: report.requests / (report.durationUs / 1e6),
        p50: report.p50 / 1000,
        p99: report.p99 / 1000,
        errors: report.errors,
        non2xx: report.non2xx,
      });
    });
  });
}

function writeScript(): string {
  const path = join(tmpdir(), `gatehouse-wrk-report-${process.pid}.lua`);
  writeFileSync(path, REPORT_SCRIPT);
  return path;
}
