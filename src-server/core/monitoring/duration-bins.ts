/**
 * Log-scale duration bins for percentiles: 16 bins per doubling, from about 1 µs up to about 70 minutes
 * (longer durations share the last bin). A bin's upper edge is at most 2^(1/16) ≈ 4.4 % above any duration in
 * it, so a percentile reported as "the upper edge of its bin" overstates the exact value by at most 4.4 %.
 */
export const BINS_PER_DOUBLING = 16;
const SMALLEST_MS = 1 / 1024;
const DOUBLINGS = 32;
export const BIN_COUNT = DOUBLINGS * BINS_PER_DOUBLING + 1;

/** Bin 0 holds durations up to ~1 µs (and zero); bin b > 0 holds [edge(b - 1), edge(b)). */
export function durationBin(durationMs: number): number {
  if (!(durationMs > SMALLEST_MS)) return 0;
  const bin = 1 + Math.floor(Math.log2(durationMs / SMALLEST_MS) * BINS_PER_DOUBLING);
  return bin < BIN_COUNT ? bin : BIN_COUNT - 1;
}

export function binUpperEdge(bin: number): number {
  return SMALLEST_MS * 2 ** (bin / BINS_PER_DOUBLING);
}

export const PERCENTILES = [0.5, 0.95, 0.99] as const;

/**
 * Nearest-rank percentiles of the `count` durations whose bin counts are `bins[offset .. offset + BIN_COUNT)`:
 * the upper edge of the bin holding the ranked duration, clamped to the exact [min, max] of the durations.
 */
export function binnedPercentiles(
  bins: ArrayLike<number>,
  offset: number,
  count: number,
  min: number,
  max: number,
): [number, number, number] {
  const ranks = PERCENTILES.map((p) => Math.max(1, Math.ceil(p * count)));
  const result: [number, number, number] = [max, max, max];
  let next = 0;
  let seen = 0;
  for (let bin = 0; bin < BIN_COUNT && next < ranks.length; bin++) {
    seen += bins[offset + bin]!;
    while (next < ranks.length && seen >= ranks[next]!) {
      result[next] = Math.min(max, Math.max(min, binUpperEdge(bin)));
      next++;
    }
  }
  return result;
}
