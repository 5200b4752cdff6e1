/**
 * CPU time of a process and of each of its children (Linux /proc), for a benchmark that accounts for every process
 * of `gatehouse serve --workers N`: the primary and each worker apart, so an overhead that exists only with workers
 * shows where it is paid.
 */
import { readFileSync } from 'node:fs';
import { processCpuSeconds } from './process-cpu.js';

/** CPU seconds by pid: the process itself first, then its descendants. */
export function processTreeCpu(pid: number): Map<number, number> {
  const seconds = new Map<number, number>();
  const visit = (current: number) => {
    seconds.set(current, processCpuSeconds(current) ?? 0);
    for (const child of childrenOf(current)) visit(child);
  };
  visit(pid);
  return seconds;
}

/** CPU seconds each process used between two snapshots (a process gone by the second one counts what it had). */
export function cpuBetween(before: Map<number, number>, after: Map<number, number>): Map<number, number> {
  const used = new Map<number, number>();
  for (const [pid, end] of after) used.set(pid, end - (before.get(pid) ?? 0));
  return used;
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return [];
  }
}
