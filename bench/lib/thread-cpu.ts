/**
 * CPU time of one thread of a process, from Linux's /proc/PID/task/TID/schedstat (nanoseconds on the CPU): a Node
 * process's main thread has the process's own id, so this is the main thread's share alone, apart from its worker
 * threads and libuv's pool. Undefined where /proc is not (or the kernel keeps no schedstat).
 */
import { readFileSync } from 'node:fs';

export function threadCpuSeconds(pid: number, tid = pid): number | undefined {
  return schedstat(pid, tid)?.running;
}

/**
 * The thread's time on the CPU and its time runnable but waiting for one (the scheduler's run queue), in seconds
 * so far: the second is what the other processes of a busy machine cost it.
 */
export function schedstat(pid: number, tid = pid): { running: number; waiting: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8');
  } catch {
    return undefined;
  }
  const [running, waiting] = stat.split(' ').map(Number);
  return Number.isFinite(running) && Number.isFinite(waiting)
    ? { running: running! / 1e9, waiting: waiting! / 1e9 }
    : undefined;
}

/** The thread's minor page faults so far (/proc/PID/task/TID/stat): fresh memory first touched costs one a page. */
export function threadMinorFaults(pid: number, tid = pid): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The fields after the command name's last ')': state is the first, minflt (field 10) the eighth.
  const minorFaults = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[7]);
  return Number.isFinite(minorFaults) ? minorFaults : undefined;
}
