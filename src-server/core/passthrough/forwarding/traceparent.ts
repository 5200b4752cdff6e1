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

// Random ids drawn in batches: one trip to the system's generator and one hex encoding serve 170 requests.
const IDS_PER_BATCH = 170;
const HEX_PER_ID = ID_BYTES * 2;
const pool = Buffer.alloc(ID_BYTES * IDS_PER_BATCH);
let hex = '';
let offset = 0;

export function newTraceparent(): string {
  if (offset === hex.length) {
    randomFillSync(pool);
    hex = pool.toString('hex');
    offset = 0;
  }
  const start = offset;
  offset += HEX_PER_ID;
  return `00-${hex.slice(start, start + 32)}-${hex.slice(start + 32, offset)}-01`;
}
