/**
 * CPU time a process has used (user + system), read from Linux's /proc: what a benchmark compares per request
 * when wall-clock throughput is shared with the load generator on a small machine. Undefined where /proc is not.
 */
import { readFileSync } from 'node:fs';

/** Linux reports /proc times in clock ticks of 1/100 s on every architecture Node supports. */
const TICKS_PER_SECOND = 100;

export function processCpuSeconds(pid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name may hold spaces and parentheses: the fields start after its last ')'. Field 3 (state) is
  // the first of them; utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return Number.isFinite(utime) && Number.isFinite(stime) ? (utime + stime) / TICKS_PER_SECOND : undefined;
}
