/**
 * Where a proxy's latency tail comes from, seen from inside the serving process: the event loop's delay
 * histogram (every stall holds all the requests in flight), the GC pauses by kind, and the time spent in API
 * monitoring's store writes (their synchronous slices run on the request thread). Each `SIGUSR2` prints one
 * JSON line with the figures since the previous one and starts over. Diagnostics for bench:proxy-tail only.
 */
import { monitorEventLoopDelay, PerformanceObserver, constants } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';

const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'mark-compact',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak-callbacks',
};

interface Pauses {
  count: number;
  totalMs: number;
  maxMs: number;
}

/** Times the synchronous part of every call of `object[method]` (a wrapped store write, commit or checkpoint). */
export type Timed = (label: string, ms: number) => void;

export function installTailProbe(): Timed {
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  let gc = new Map<string, Pauses>();
  let work = new Map<string, Pauses>();
  const add = (into: Map<string, Pauses>, label: string, ms: number) => {
    const pauses = into.get(label) ?? { count: 0, totalMs: 0, maxMs: 0 };
    pauses.count++;
    pauses.totalMs += ms;
    pauses.maxMs = Math.max(pauses.maxMs, ms);
    into.set(label, pauses);
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? -1;
      add(gc, GC_KINDS[kind] ?? String(kind), entry.duration);
    }
  }).observe({ entryTypes: ['gc'] });
  let since = performance.now();
  process.on('SIGUSR2', () => {
    const ms = (nanos: number) => Number((nanos / 1e6).toFixed(2));
    const seconds = (performance.now() - since) / 1000;
    const rounded = (map: Map<string, Pauses>) =>
      Object.fromEntries(
        [...map].map(([label, p]) => [
          label,
          {
            count: p.count,
            perSecond: Number((p.count / seconds).toFixed(1)),
            totalMs: Number(p.totalMs.toFixed(1)),
            maxMs: Number(p.maxMs.toFixed(2)),
          },
        ]),
      );
    console.log(
      JSON.stringify({
        seconds: Number(seconds.toFixed(1)),
        loopDelayMs: {
          p50: ms(loop.percentile(50)),
          p99: ms(loop.percentile(99)),
          p999: ms(loop.percentile(99.9)),
          max: ms(loop.max),
        },
        gc: rounded(gc),
        // The young generation's size now (both semi-spaces): how much is allocated between two scavenges.
        youngGenerationMB: Number(
          (
            (getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0) /
            2 ** 20
          ).toFixed(1),
        ),
        work: rounded(work),
      }),
    );
    loop.reset();
    gc = new Map();
    work = new Map();
    since = performance.now();
  });
  return (label, ms) => add(work, label, ms);
}
