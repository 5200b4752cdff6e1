import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MONITORING_OUTCOMES,
  type NewMonitoringRecord,
} from '../../../src-server/core/monitoring/monitoring-record.js';
import {
  BlockBuilder,
  BlockReader,
  recordLengthAt,
} from '../../../src-server/core/monitoring/store/block-codec.js';
import { ByteInterner } from '../../../src-server/core/monitoring/store/byte-interner.js';
import { normalizeRecord } from '../../../src-server/core/monitoring/normalize-record.js';
import {
  decodeRecord,
  IndexFieldReader,
  RecordCodecError,
} from '../../../src-server/core/monitoring/store/record-codec.js';
import { record, REQUIRED_RECORD_KEYS } from './helpers.js';

const text = fc.string({ unit: 'binary-ascii', maxLength: 40 });
const anyRecord: fc.Arbitrary<NewMonitoringRecord> = fc.record(
  {
    time: fc.integer({ min: 0, max: 4_102_444_800_000 }).map((ms) => new Date(ms).toISOString()),
    agentGroupId: text,
    agentGroupName: fc.string({ unit: 'grapheme', maxLength: 20 }),
    method: fc.constantFrom('GET', 'POST', 'M-SEARCH', ''),
    path: fc.string({ unit: 'grapheme', maxLength: 60 }).map((p) => `/${p.replace(/\?/g, '')}`),
    apiId: text,
    apiName: fc.string({ unit: 'grapheme', maxLength: 20 }),
    operation: text,
    status: fc.integer({ min: 0, max: 999 }),
    durationMs: fc.double({ min: 0, max: 1e9, noNaN: true }),
    bytesIn: fc.nat(),
    bytesOut: fc.maxSafeNat(),
    targetUrl: text,
    outcome: fc.constantFrom(...MONITORING_OUTCOMES),
    clientIp: text,
    identity: text,
    reason: fc.string({ unit: 'grapheme', maxLength: 30 }),
  },
  { requiredKeys: REQUIRED_RECORD_KEYS },
);

describe('record blocks', () => {
  it('round-trip any record, and the index fields name the right bytes', () => {
    fc.assert(
      fc.property(fc.array(anyRecord, { minLength: 1, maxLength: 80 }), (records) => {
        const builder = new BlockBuilder();
        const offsets = records.map((r, i) => builder.add(i + 1, Date.parse(r.time), r));
        const block = Buffer.from(builder.take());
        const reader = new BlockReader();
        const fields = new IndexFieldReader();
        reader.open(block);
        records.forEach((expected, i) => {
          expect(reader.next()).toBe(true);
          expect(reader.offset).toBe(offsets[i]);
          expect(recordLengthAt(block, reader.offset)).toBe(reader.length);
          expect(decodeRecord(block, reader.offset, reader.length)).toEqual({ id: i + 1, ...expected });
          fields.read(block, reader.offset, reader.length);
          const slice = (start: number, length: number) => block.toString('utf8', start, start + length);
          expect(slice(fields.pathStart, fields.pathLength)).toBe(expected.path);
          expect(slice(fields.methodStart, fields.methodLength)).toBe(expected.method);
          expect(slice(fields.agentGroupStart, fields.agentGroupLength)).toBe(expected.agentGroupId);
          expect(slice(fields.outcomeStart, fields.outcomeLength)).toBe(expected.outcome);
          expect(fields.apiLength < 0 ? undefined : slice(fields.apiStart, fields.apiLength)).toBe(
            expected.apiId,
          );
          expect(
            fields.operationLength < 0 ? undefined : slice(fields.operationStart, fields.operationLength),
          ).toBe(expected.operation);
          expect(fields).toMatchObject({
            id: i + 1,
            timeMs: Date.parse(expected.time),
            status: expected.status,
          });
        });
        expect(reader.next()).toBe(false);
      }),
    );
  });

  it('reports a truncated block instead of reading past it', () => {
    const builder = new BlockBuilder();
    builder.add(1, 0, record());
    builder.add(2, 0, record());
    const block = Buffer.from(builder.take());
    const reader = new BlockReader();
    reader.open(block.subarray(0, block.length - 3));
    expect(reader.next()).toBe(true);
    expect(() => reader.next()).toThrow(RecordCodecError);
    expect(() => reader.open(Buffer.from([9, 1, 0, 0]))).toThrow(RecordCodecError);
    expect(() => reader.open(Buffer.from([2, 7, 0, 0]))).toThrow(/version/);
  });
});

describe('normalizeRecord', () => {
  it('re-renders the time, strips the query, bounds strings and numbers', () => {
    const normalized = normalizeRecord(
      record({
        time: '2026-03-01T01:00:00+01:00',
        path: '/a?b=c',
        status: 1234,
        durationMs: Number.NaN,
        bytesIn: -5,
        bytesOut: 1.6,
        apiId: 'x'.repeat(300),
      }),
    );
    expect(normalized?.record).toMatchObject({
      time: '2026-03-01T00:00:00.000Z',
      path: '/a',
      status: 0,
      durationMs: 0,
      bytesIn: 0,
      bytesOut: 2,
    });
    expect(normalized?.record.apiId).toHaveLength(200);
    expect(normalizeRecord(record({ time: 'not a time' }))).toBeUndefined();
  });
});

describe('ByteInterner', () => {
  it('behaves like a Map from strings to dense ids, also after compaction', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'grapheme', maxLength: 12 }), { maxLength: 300 }),
        fc.string({ maxLength: 3 }),
        (values, prefix) => {
          const interner = new ByteInterner(2);
          const reference = new Map<string, number>();
          for (const value of values) {
            if (!reference.has(value)) reference.set(value, reference.size);
            expect(interner.intern(value)).toBe(reference.get(value));
          }
          expect(interner.size).toBe(reference.size);
          for (const [value, id] of reference) {
            expect(interner.find(value)).toBe(id);
            expect(interner.text(id)).toBe(value);
          }
          expect(interner.find('\u0000missing')).toBe(-1);
          const marks = interner.markPrefixed(Buffer.from(prefix));
          for (const [value, id] of reference) expect(marks[id] === 1).toBe(value.startsWith(prefix));
          const keep = new Uint8Array(interner.size).map((_, id) => id % 2);
          const { interner: compacted, mapping } = interner.compact(keep);
          for (const [value, id] of reference) {
            if (id % 2) expect(compacted.text(mapping[id]!)).toBe(value);
            else expect(mapping[id]).toBe(-1);
          }
        },
      ),
    );
  });
});
