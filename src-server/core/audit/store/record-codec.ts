import type { AuditEntry } from '../audit-entry.js';
import type { ContentHash } from '../content-hash.js';

/**
 * Payloads of the audit log. Entry: `[kind=1][version][hash hi u32][hash lo u32][JSON of the entry]`.
 * Tombstone (ids removed by retention or by an operator): `[kind=2][version][count u32][ids u32...]`.
 */
export const RECORD_KIND_ENTRY = 1;
export const RECORD_KIND_TOMBSTONE = 2;
const RECORD_VERSION = 1;
const ENTRY_HEADER_BYTES = 10;
const TOMBSTONE_HEADER_BYTES = 6;

export type DecodedRecord =
  { kind: 'entry'; entry: AuditEntry; hash: ContentHash } | { kind: 'tombstone'; ids: Uint32Array };

/** Writes the binary part of an entry record (before its JSON) into `target`, which it returns. */
export function entryRecordPrefix(
  hash: ContentHash,
  target: Buffer = Buffer.allocUnsafe(ENTRY_HEADER_BYTES),
): Buffer {
  target[0] = RECORD_KIND_ENTRY;
  target[1] = RECORD_VERSION;
  target.writeUInt32LE(hash.hi, 2);
  target.writeUInt32LE(hash.lo, 6);
  return target;
}

export function encodeEntryRecord(entry: AuditEntry, hash: ContentHash): Buffer {
  const json = JSON.stringify(entry);
  const byteLength = Buffer.byteLength(json);
  const payload = Buffer.allocUnsafe(ENTRY_HEADER_BYTES + byteLength);
  payload[0] = RECORD_KIND_ENTRY;
  payload[1] = RECORD_VERSION;
  payload.writeUInt32LE(hash.hi, 2);
  payload.writeUInt32LE(hash.lo, 6);
  payload.write(json, ENTRY_HEADER_BYTES, 'utf8');
  return payload;
}

export function encodeTombstoneRecord(ids: ArrayLike<number>): Buffer {
  const payload = Buffer.allocUnsafe(TOMBSTONE_HEADER_BYTES + ids.length * 4);
  payload[0] = RECORD_KIND_TOMBSTONE;
  payload[1] = RECORD_VERSION;
  payload.writeUInt32LE(ids.length, 2);
  for (let i = 0; i < ids.length; i++) payload.writeUInt32LE(ids[i]!, TOMBSTONE_HEADER_BYTES + i * 4);
  return payload;
}

export function recordKind(payload: Uint8Array): number {
  return payload[0] ?? 0;
}

export function decodeEntryPayload(payload: Buffer): AuditEntry {
  return JSON.parse(payload.toString('utf8', ENTRY_HEADER_BYTES)) as AuditEntry;
}

export function decodeRecord(payload: Buffer): DecodedRecord {
  if (payload[1] !== RECORD_VERSION) throw new Error(`Unknown audit record version ${String(payload[1])}`);
  switch (payload[0]) {
    case RECORD_KIND_ENTRY:
      return {
        kind: 'entry',
        entry: decodeEntryPayload(payload),
        hash: { hi: payload.readUInt32LE(2), lo: payload.readUInt32LE(6) },
      };
    case RECORD_KIND_TOMBSTONE: {
      const count = payload.readUInt32LE(2);
      if (payload.length !== TOMBSTONE_HEADER_BYTES + count * 4)
        throw new Error('Tombstone record has a wrong length');
      const ids = new Uint32Array(count);
      for (let i = 0; i < count; i++) ids[i] = payload.readUInt32LE(TOMBSTONE_HEADER_BYTES + i * 4);
      return { kind: 'tombstone', ids };
    }
    default:
      throw new Error(`Unknown audit record kind ${String(payload[0])}`);
  }
}
