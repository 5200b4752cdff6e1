/** How long a 429's `Retry-After` asks to wait (delta-seconds or an HTTP date), capped; undefined when absent. */
export function retryAfterMs(header: string | null, now: number, capMs: number): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, capMs);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.min(Math.max(0, at - now), capMs);
}

/** Exponential backoff with full jitter: attempt 0 waits up to `baseMs`, each next one up to twice as long. */
export function backoffMs(
  attempt: number,
  baseMs: number,
  capMs: number,
  random: () => number = Math.random,
): number {
  return Math.round(Math.min(capMs, baseMs * 2 ** attempt) * (0.5 + random() / 2));
}
