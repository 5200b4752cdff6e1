export type Random = () => number;

/** mulberry32: small, fast, good enough for test data. */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Picks index k (0-based) with probability proportional to 1 / (k + 1)^exponent. */
export function zipfSampler(size: number, exponent: number, random: Random): () => number {
  const cumulative = new Float64Array(size);
  let total = 0;
  for (let k = 0; k < size; k++) {
    total += 1 / Math.pow(k + 1, exponent);
    cumulative[k] = total;
  }
  return () => {
    const target = random() * total;
    let low = 0;
    let high = size - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return low;
  };
}
