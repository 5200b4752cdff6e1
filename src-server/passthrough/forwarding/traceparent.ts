import { randomFillSync } from 'node:crypto';

const TRACEPARENT = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;
const ALL_ZERO_TRACE = '00000000000000000000000000000000';
const ALL_ZERO_SPAN = '0000000000000000';
const ID_BYTES = 24;

/** A W3C `traceparent` as the gateway forwards it: the client's when valid, else a new sampled one. */
export function traceparentFor(incoming: string | string[] | undefined): string {
  const value = Array.isArray(incoming) ? incoming[0] : incoming;
  if (value !== undefined && isValidTraceparent(value)) return value;
  return newTraceparent();
}

export function isValidTraceparent(value: string): boolean {
  return (
    TRACEPARENT.test(value) &&
    !value.startsWith('ff') &&
    value.slice(3, 35) !== ALL_ZERO_TRACE &&
    value.slice(36, 52) !== ALL_ZERO_SPAN
  );
}

// Random bytes drawn in batches: one trip to the system's generator serves 170 requests.
const pool = Buffer.alloc(ID_BYTES * 170);
let offset = pool.length;

export function newTraceparent(): string {
  if (offset + ID_BYTES > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const id = pool.toString('hex', offset, offset + ID_BYTES);
  offset += ID_BYTES;
  return `00-${id.slice(0, 32)}-${id.slice(32)}-01`;
}
