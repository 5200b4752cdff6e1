import type { AuditEntry } from '../audit/audit-entry.js';

/**
 * Payloads of the audit segment log written before the SQL storage (read-only now, for the conversion). Entry:
 * `[kind=1][version][hash hi u32][hash lo u32][JSON of the entry]`. Tombstone (ids removed by retention or by an
 * operator): `[kind=2][version][count u32][ids u32...]`.
 */
const RECORD_KIND_ENTRY = 1;
const RECORD_KIND_TOMBSTONE = 2;
const RECORD_VERSION = 1;
const ENTRY_HEADER_BYTES = 10;
const TOMBSTONE_HEADER_BYTES = 6;

export type DecodedRecord =
  { kind: 'entry'; entry: AuditEntry; hash: string } | { kind: 'tombstone'; ids: Uint32Array };

export function decodeAuditRecord(payload: Buffer): DecodedRecord {
  if (payload[1] !== RECORD_VERSION) throw new Error(`Unknown audit record version ${String(payload[1])}`);
  switch (payload[0]) {
    case RECORD_KIND_ENTRY:
      return {
        kind: 'entry',
        entry: JSON.parse(payload.toString('utf8', ENTRY_HEADER_BYTES)) as AuditEntry,
        // The content digest as the SQL store writes it: 16 hex digits, high half first.
        hash:
          payload.readUInt32LE(2).toString(16).padStart(8, '0') +
          payload.readUInt32LE(6).toString(16).padStart(8, '0'),
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
