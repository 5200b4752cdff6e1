/**
 * bench:cluster's variants (selected by key, optionally run from a baseline checkout too) and its report: the
 * throughput table, and where every request's CPU went, process by process (the serve process or primary, each
 * worker, wrk, the target).
 */
import { join, resolve } from 'node:path';
import { median } from './stats.js';

export interface Variant {
  key: string;
  name: string;
  dataDir: string;
  args: string[];
  env?: Record<string, string>;
  /** The built CLI to run (another checkout's for a baseline). */
  cli?: string;
}

export interface Measured {
  requestsPerSecond: number;
  p50: string;
  p99: string;
  errors: number;
  /** CPU seconds per second of wall clock (1.0 = one core busy): the serve process and its workers together. */
  serverCores: number;
  /** The serve process alone (with workers: the primary). */
  primaryCores: number;
  /** Each worker's, by start order. */
  workerCores: number[];
  wrkCores: number;
  targetCores: number;
}

/** The variants whose keys are asked for; with a baseline checkout, each one again from there, interleaved. */
export function selectVariants<V extends Variant>(
  all: readonly V[],
  keys: readonly string[],
  baseline?: string,
): V[] {
  const unknown = keys.filter((key) => !all.some((variant) => variant.key === key));
  if (unknown.length > 0)
    throw new Error(`unknown --variants ${unknown.join(', ')} (known: ${all.map((v) => v.key).join(', ')})`);
  const chosen = all.filter((variant) => keys.includes(variant.key));
  if (!baseline) return chosen;
  const cli = join(resolve(baseline), 'out/server/cli.js');
  return chosen.flatMap((variant) => [
    { ...variant, key: `${variant.key}@baseline`, name: `${variant.name} [baseline]`, cli },
    variant,
  ]);
}

const perRequest = (cores: number, rate: number) => ((cores / rate) * 1e6).toFixed(0);

export function reportThroughput(
  variants: readonly Variant[],
  best: ReadonlyMap<string, Measured>,
  byRound: readonly ReadonlyMap<string, Measured>[],
): void {
  console.log(
    '| variant | req/s | p50 | p99 | errors | server CPU (cores) | server CPU per request (µs) | wrk CPU (cores) | target CPU (cores) |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const variant of variants) {
    const result = best.get(variant.name)!;
    console.log(
      `| ${variant.name} | ${Math.round(result.requestsPerSecond)} | ${result.p50} | ${result.p99} | ${result.errors} | ${result.serverCores.toFixed(2)} | ${perRequest(result.serverCores, result.requestsPerSecond)} | ${result.wrkCores.toFixed(2)} | ${result.targetCores.toFixed(2)} |`,
    );
  }
  reportPerProcess(variants, best);
  const ratio = (over: string, under: string) => describeRatio(pairedRatios(byRound, over, under));
  for (const suffix of ['', ' [baseline]']) {
    if (
      !variants.some(
        (variant) => variant.name.endsWith(suffix) && (suffix !== '' || !variant.name.endsWith(']')),
      )
    )
      continue;
    if (variants.some((variant) => variant.name.startsWith('--workers 2') && variant.name.endsWith(suffix)))
      console.log(
        `\n--workers 2${suffix} (target ≥ 1.4×):\n` +
          `- round robin: ${ratio(`--workers 2 (round robin)${suffix}`, `--workers 1${suffix}`)} --workers 1, ` +
          `${ratio(`--workers 2 (round robin)${suffix}`, `one process${suffix}`)} one process\n` +
          `- SCHED_NONE: ${ratio(`--workers 2 (kernel: SCHED_NONE)${suffix}`, `--workers 1${suffix}`)} --workers 1, ` +
          `${ratio(`--workers 2 (kernel: SCHED_NONE)${suffix}`, `one process${suffix}`)} one process`,
      );
    const redis = pairedRatios(byRound, `throttled, in Redis${suffix}`, `throttled, in process${suffix}`);
    if (redis.length > 0)
      console.log(
        `Throttling in Redis / in process${suffix}: ${describeRatio(redis, 'percent')} (target ≥ 90 %: costs at most 10 %)`,
      );
  }
}

/** `over`'s throughput divided by `under`'s, for each round that measured both. */
export function pairedRatios(
  byRound: readonly ReadonlyMap<string, Measured>[],
  over: string,
  under: string,
): number[] {
  return byRound.flatMap((round) => {
    const top = round.get(over);
    const bottom = round.get(under);
    return top && bottom ? [top.requestsPerSecond / bottom.requestsPerSecond] : [];
  });
}

function describeRatio(ratios: readonly number[], unit: 'times' | 'percent' = 'times'): string {
  if (ratios.length === 0) return 'not run';
  const show = (value: number) =>
    unit === 'times' ? `${value.toFixed(2)}×` : `${(value * 100).toFixed(1)} %`;
  return `median ${show(median(ratios))} (rounds: ${ratios.map(show).join(', ')})`;
}

/** CPU per request of each process: what only the workers' setup pays shows as the primary's or a worker's. */
function reportPerProcess(variants: readonly Variant[], best: ReadonlyMap<string, Measured>): void {
  console.log(
    '\n| variant | req/s | serve process or primary (cores · µs/req) | workers (cores · µs/req each) | wrk (cores · µs/req) | target (cores · µs/req) | all (µs/req) |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const variant of variants) {
    const result = best.get(variant.name)!;
    const rate = result.requestsPerSecond;
    const cell = (cores: number) => `${cores.toFixed(2)} · ${perRequest(cores, rate)}`;
    const workers = result.workerCores.length > 0 ? result.workerCores.map(cell).join(' / ') : '–';
    const all = result.serverCores + result.wrkCores + result.targetCores;
    console.log(
      `| ${variant.name} | ${Math.round(rate)} | ${cell(result.primaryCores)} | ${workers} | ${cell(result.wrkCores)} | ${cell(result.targetCores)} | ${perRequest(all, rate)} |`,
    );
  }
}
