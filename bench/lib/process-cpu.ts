/**
 * CPU time a process has used (user + system), read from Linux's /proc: what a benchmark compares per request
 * when wall-clock throughput is shared with the load generator on a small machine. Undefined where /proc is not.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Linux reports /proc times in clock ticks of 1/100 s on every architecture Node supports. */
const TICKS_PER_SECOND = 100;

/** The process's CPU time, or with `tid` one of its threads'. */
export function processCpuSeconds(pid: number, tid?: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8');
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

/**
 * CPU time of each thread of a process, in seconds, by thread id (the main thread's id is the process's):
 * Gatehouse's main thread serves the gateway, the monitoring writer thread stores its records, and V8's helper
 * threads collect garbage and compile. A thread that ends between the directory listing and the read is left out.
 */
export function threadCpuSeconds(pid: number): Map<number, number> {
  const times = new Map<number, number>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return times;
  }
  for (const tid of tids) {
    const seconds = processCpuSeconds(pid, Number(tid));
    if (seconds !== undefined) times.set(Number(tid), seconds);
  }
  return times;
}
