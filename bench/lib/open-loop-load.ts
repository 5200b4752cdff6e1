/**
 * A fixed-rate, open-loop load on one URL, run as its own process: `tsx open-loop-load.ts URL SECONDS RATE`.
 * Requests leave on schedule whether or not the earlier ones were answered (as many keep-alive connections as
 * that needs), so a 200 ms stall of the server delays every request sent during it, as it delays real users; a
 * closed loop (autocannon's -c 4 -R) would send nothing during the stall and record it 4 times. Prints one JSON
 * line: every latency in ms, the errors and the non-2xx answers.
 */
import { Agent, request } from 'node:http';

const [url, secondsArg, rateArg] = process.argv.slice(2);
if (!url || !secondsArg || !rateArg) throw new Error('usage: open-loop-load.ts URL SECONDS RATE');
const target = new URL(url);
const total = Math.round(Number(secondsArg) * Number(rateArg));
const interval = 1000 / Number(rateArg);
const agent = new Agent({ keepAlive: true, maxSockets: 256 });

const latencies: number[] = [];
let errors = 0;
let non2xx = 0;
let settled = 0;

function send(): void {
  const begin = performance.now();
  const finish = () => {
    settled += 1;
    if (settled === total) report();
  };
  const req = request(
    { host: target.hostname, port: target.port, path: target.pathname + target.search, agent },
    (res) => {
      res.resume();
      res.on('end', () => {
        latencies.push(performance.now() - begin);
        if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) > 299) non2xx += 1;
        finish();
      });
    },
  );
  req.setTimeout(10_000, () => req.destroy(new Error('timed out')));
  req.on('error', () => {
    errors += 1;
    finish();
  });
  req.end();
}

function report(): void {
  agent.destroy();
  const rounded = latencies.map((ms) => Math.round(ms * 100) / 100);
  process.stdout.write(`${JSON.stringify({ latencies: rounded, errors, non2xx })}\n`);
}

// On schedule: each tick sends every request whose time has come (a late timer sends the missed ones at once).
const started = performance.now();
let sent = 0;
function tick(): void {
  const due = Math.min(total, Math.floor((performance.now() - started) / interval) + 1);
  while (sent < due) {
    sent += 1;
    send();
  }
  if (sent < total) setTimeout(tick, Math.max(0, started + sent * interval - performance.now()));
}
tick();
