import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MONITORING_OUTCOMES,
  type NewMonitoringRecord,
} from '../../../src-server/core/monitoring/monitoring-record.js';
import { afterEach, beforeEach } from 'vitest';
import { normalizeRecord } from '../../../src-server/core/monitoring/normalize-record.js';
import { ENGINES } from '../../helpers/test-database.js';
import { BASE_MS, record, REQUIRED_RECORD_KEYS, StoreFixture } from './helpers.js';

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
    instance: text,
  },
  { requiredKeys: REQUIRED_RECORD_KEYS },
);

describe.each(ENGINES)('a monitoring record on %s', (engine) => {
  let fixture: StoreFixture;
  beforeEach(async () => {
    fixture = await StoreFixture.create(engine);
  });
  afterEach(async () => {
    await fixture.dispose();
  });

  it('reads back exactly as normalized, whatever its text and numbers', async () => {
    const store = await fixture.openStore();
    await fc.assert(
      fc.asyncProperty(fc.array(anyRecord, { minLength: 1, maxLength: 20 }), async (records) => {
        const stored = await store.append(records);
        expect(stored).toHaveLength(records.length);
        for (const [k, input] of records.entries()) {
          const expected = storedFormOf(input, stored[k]!.id);
          expect(await store.get(stored[k]!.id)).toEqual(expected);
          expect(stored[k]).toEqual(expected);
        }
      }),
      { numRuns: engine === 'postgres' ? 20 : 50 },
    );
  });

  it('reads back exactly as normalized when the rows of a batch share their group, client or API, or not', async () => {
    // SQLite binds the values a slice's rows share once per statement (50 rows): batches of 50+ rows whose groups
    // of columns are all one value, or two values mixed, so slices go both ways.
    const store = await fixture.openStore();
    const pools = fc.tuple(fc.boolean(), fc.boolean(), fc.boolean());
    const batch = pools.chain(([group, client, api]) => {
      const pick = <T>(mixed: boolean, first: T, second: T) =>
        mixed ? fc.constantFrom(first, second) : fc.constant(first);
      return fc.array(
        fc.record({
          ms: fc.integer({ min: 0, max: 86_400_000 }),
          agentGroupId: pick(group, 'default', 'edge'),
          instance: pick(group, undefined, 'node-2'),
          clientIp: pick(client, '10.0.0.1', '10.0.0.2'),
          identity: pick(client, 'app', undefined),
          reason: pick(client, undefined, 'the upstream timed out'),
          apiId: pick(api, 'orders', undefined),
          method: pick(api, 'GET', 'post'),
          status: fc.constantFrom(200, 404),
        }),
        { minLength: 50, maxLength: 230 },
      );
    });
    await fc.assert(
      fc.asyncProperty(batch, async (rows) => {
        const records = rows.map(({ ms, ...fields }) =>
          record({
            ...fields,
            time: new Date(BASE_MS + ms).toISOString(),
            agentGroupName: fields.agentGroupId.toUpperCase(),
            apiName: fields.apiId?.toUpperCase(),
            operation: fields.apiId && `${fields.method} /${fields.apiId}`,
            path: `/p/${ms}`,
          }),
        );
        const stored = await store.append(records);
        expect(stored).toHaveLength(records.length);
        for (const [k, input] of records.entries()) {
          const expected = storedFormOf(input, stored[k]!.id);
          expect(await store.get(stored[k]!.id)).toEqual(expected);
        }
      }),
      { numRuns: engine === 'postgres' ? 5 : 20 },
    );
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

/** A record as the store reads it back: normalized, with its id, and without the fields it leaves out. */
function storedFormOf(input: Parameters<typeof normalizeRecord>[0], id: number) {
  const expected = { ...normalizeRecord(input)!.record, id };
  for (const key of Object.keys(expected) as (keyof typeof expected)[]) {
    if (expected[key] === undefined) delete expected[key];
  }
  return expected;
}
