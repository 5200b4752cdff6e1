/**
 * CPU time per request of `gatehouse serve` on a cheap audit-log query, read from /proc/<pid>/stat (user + system),
 * not wall clock, so that it means something on a loaded machine. Usage:
 *   tsx bench/audit-request-cpu.ts --data-dir DIR [--requests 2000]
 * The data dir is one `gatehouse audit import` filled (e.g. with 100,000 entries from bench/lib/audit-dataset.ts).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { FULL_AUDIT_ENV, gatehouseToken, startGatehouseServe } from './lib/gatehouse-serve.js';

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    requests: { type: 'string', default: '2000' },
    path: { type: 'string', default: '/api/v1/audit-log?userName=nobody-at-all&PageSize=50' },
  },
});
const dataDir = values['data-dir'];
if (!dataDir) throw new Error('--data-dir is required');
const requests = Number(values.requests);

const TICKS_PER_SECOND = 100;
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of stat; after "pid (comm) " they are at 11 and 12.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

const token = gatehouseToken(dataDir, 'Auditor', '2h', FULL_AUDIT_ENV);
const served = await startGatehouseServe(dataDir, { env: FULL_AUDIT_ENV });
try {
  const headers = { Authorization: `Bearer ${token}` };
  for (let i = 0; i < 200; i++) await (await fetch(served.url + values.path, { headers })).arrayBuffer();
  const before = cpuMs(served.pid);
  for (let i = 0; i < requests; i++) {
    const response = await fetch(served.url + values.path, { headers });
    if (response.status !== 200) throw new Error(`answered ${response.status}`);
    await response.arrayBuffer();
  }
  const used = cpuMs(served.pid) - before;
  console.log(
    JSON.stringify({ requests, serverCpuMs: used, cpuMsPerRequest: Number((used / requests).toFixed(3)) }),
  );
} finally {
  await served.stop();
}
