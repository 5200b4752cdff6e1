import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { serialize, deserialize } from 'node:v8';
import {
  encodeMonitoringBatch,
  forEachMonitoringRecord,
} from '../../../src-server/app/cluster/monitoring-batch.js';
import { MONITORING_OUTCOMES } from '../../../src-server/core/monitoring/monitoring-record.js';
import type { NewMonitoringRecord } from '../../../src-server/core/monitoring/monitoring-record.js';
import { REQUIRED_RECORD_KEYS } from './helpers.js';

type Entry = [NewMonitoringRecord, string | undefined];

/** A few values each, so that batches repeat strings as a worker's do. */
const text = fc.oneof(fc.constantFrom('Default', '/bench/items/7', '', 'é 🙂'), fc.string());
const record: fc.Arbitrary<NewMonitoringRecord> = fc.record(
  {
    time: fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
    agentGroupId: fc.constantFrom('group-a', 'group-b'),
    agentGroupName: text,
    method: fc.constantFrom('GET', 'POST', 'PATCH'),
    path: text,
    apiId: fc.uuid(),
    apiName: text,
    operation: text,
    viaAllOperations: fc.boolean(),
    status: fc.integer({ min: 0, max: 599 }),
    durationMs: fc.double(),
    bytesIn: fc.nat(),
    bytesOut: fc.nat(),
    targetUrl: text,
    outcome: fc.constantFrom(...MONITORING_OUTCOMES),
    clientIp: fc.constantFrom('127.0.0.1', '::1'),
    identity: text,
    reason: text,
    instance: fc.constantFrom('host-1', 'host-2'),
    capture: fc.constant({
      request: { method: 'GET', target: '/x', httpVersion: '1.1', headers: [], body: null },
    } as unknown as NonNullable<NewMonitoringRecord['capture']>),
  },
  {
    noNullPrototype: true,
    requiredKeys: REQUIRED_RECORD_KEYS,
  },
);
const entry: fc.Arbitrary<Entry> = fc.tuple(record, fc.option(text, { nil: undefined }));

/** Through the same structured clone node:cluster's advanced serialization uses. */
function roundTrip(entries: Entry[]): Entry[] {
  const received = deserialize(serialize(encodeMonitoringBatch(entries))) as ReturnType<
    typeof encodeMonitoringBatch
  >;
  const decoded: Entry[] = [];
  forEachMonitoringRecord(received, (decodedRecord, traceparent) =>
    decoded.push([decodedRecord, traceparent]),
  );
  return decoded;
}

describe('monitoring records sent from a gateway worker to its primary', () => {
  it('arrive as they were sent, in order, with their trace contexts', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 60 }), (entries) => {
        expect(roundTrip(entries)).toStrictEqual(entries);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a record whose values the columns cannot hold whole (a wrong type, a captured exchange)', () => {
    const base = fc.sample(record, { numRuns: 1, seed: 7 })[0]!;
    const odd = [
      { ...base, status: '200' as unknown as number },
      { ...base, apiName: 42 as unknown as string },
      { ...base, viaAllOperations: 'yes' as unknown as boolean },
      { ...base, capture: { request: { method: 'GET' } } as unknown as NewMonitoringRecord['capture'] },
    ];
    const entries: Entry[] = [[base, undefined], ...odd.map((item): Entry => [item, 'tp']), [base, 'tp-2']];
    expect(roundTrip(entries)).toStrictEqual(entries);
  });

  it('sends a batch of like records in far fewer bytes than the records themselves', () => {
    const base = fc.sample(record, { numRuns: 1, seed: 11 })[0]!;
    const { capture: _capture, ...plain } = base;
    const entries: Entry[] = Array.from({ length: 256 }, (_, index) => [
      { ...plain, time: new Date(1_700_000_000_000 + index).toISOString(), durationMs: index / 7 },
      undefined,
    ]);
    expect(serialize(encodeMonitoringBatch(entries)).length).toBeLessThan(serialize(entries).length / 2);
  });
});
