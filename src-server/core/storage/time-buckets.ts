export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;

/** A stretch of time and how many matching rows it holds. */
export interface CountedBucket {
  /** Inclusive. */
  startMs: number;
  /** Exclusive. */
  endMs: number;
  count: number;
}

/**
 * Where page `skip … skip + take` of a newest-first list starts, given exact counts per time bucket (newest
 * first): the rows to read are the newest ones before `endMs`, after skipping `offset` of them. Seeking to the
 * bucket keeps OFFSET within one bucket however deep the page, which is what keeps any PageNumber cheap.
 * Undefined when the page is past the end.
 */
export function locatePage(
  buckets: readonly CountedBucket[],
  skip: number,
): { endMs: number; offset: number } | undefined {
  let before = 0;
  for (const bucket of buckets) {
    if (bucket.count > 0 && before + bucket.count > skip)
      return { endMs: bucket.endMs, offset: skip - before };
    before += bucket.count;
  }
  return undefined;
}

/** Buckets [first, end) by index (`bucket * size` is its start); an absent bound is open. */
export interface WholeBuckets {
  first?: number;
  end?: number;
}

/**
 * Splits [startMs, endMs) (either bound may be open) into the whole buckets of `size` it covers, counted from
 * roll-ups, and the partial pieces at its ends, counted from the rows themselves.
 */
export function splitRange(
  startMs: number | undefined,
  endMs: number | undefined,
  size: number,
): { whole: WholeBuckets | undefined; partial: { startMs: number; endMs: number }[] } {
  if (startMs !== undefined && endMs !== undefined && endMs <= startMs)
    return { whole: undefined, partial: [] };
  const first = startMs === undefined ? undefined : Math.ceil(startMs / size);
  const end = endMs === undefined ? undefined : Math.floor(endMs / size);
  if (first !== undefined && end !== undefined && first >= end) {
    return { whole: undefined, partial: [{ startMs: startMs!, endMs: endMs! }] };
  }
  const partial: { startMs: number; endMs: number }[] = [];
  if (startMs !== undefined && startMs < first! * size) partial.push({ startMs, endMs: first! * size });
  if (endMs !== undefined && end! * size < endMs) partial.push({ startMs: end! * size, endMs });
  return { whole: { first, end }, partial };
}
