import fc from 'fast-check';
import {
  MONITORING_OUTCOMES,
  type MonitoringRecord,
  type NewMonitoringRecord,
} from '../../../src-server/core/monitoring/monitoring-record.js';
import type {
  MonitoringFilter,
  MonitoringQuery,
} from '../../../src-server/core/monitoring/monitoring-store.js';
import { SqlMonitoringStore } from '../../../src-server/core/monitoring/sql/sql-monitoring-store.js';
import type { EngineKind } from '../../../src-server/core/storage/engine-kind.js';
import { StoreFixture as EngineStoreFixture, type StoreKind } from '../../helpers/store-fixture.js';

export const BASE_MS = Date.parse('2026-03-01T00:00:00.000Z');
export const SPAN_MS = 30_000;

export const AGENT_GROUPS = ['default', 'eu-west', 'Default'];
export const APIS = ['api-orders', 'api-customers', 'API-ORDERS'];
export const OPERATIONS = ['GET /orders/{id}', 'POST /orders', '*', 'get /orders/{id}'];
export const METHODS = ['GET', 'POST', 'DELETE', 'get', 'OPTIONS'];
export const PATHS = [
  '/orders/1',
  '/orders/12',
  '/orders',
  '/Orders/1',
  '/customers/7',
  '/',
  '/café/1',
  '/日本/2',
  '-',
];
export const STATUSES = [0, 99, 100, 101, 200, 201, 204, 301, 404, 429, 499, 500, 503, 599, 600, 999];

/** The fields every `NewMonitoringRecord` has; the others are optional. */
export const REQUIRED_RECORD_KEYS = [
  'time',
  'agentGroupId',
  'agentGroupName',
  'method',
  'path',
  'status',
  'durationMs',
  'bytesIn',
  'bytesOut',
  'outcome',
  'clientIp',
] satisfies (keyof NewMonitoringRecord)[];

/**
 * Records with few distinct values and coarse times (steps of `stepMs` over `spanMs`): many ties, so the id
 * tie-break is exercised, and many matches for every filter.
 */
export function recordArbitrary(spanMs: number, stepMs: number): fc.Arbitrary<NewMonitoringRecord> {
  return fc.record(
    {
      time: fc
        .integer({ min: 0, max: spanMs / stepMs })
        .map((step) => new Date(BASE_MS + step * stepMs).toISOString()),
      agentGroupId: fc.constantFrom(...AGENT_GROUPS),
      agentGroupName: fc.constantFrom('Default', 'EU West'),
      method: fc.constantFrom(...METHODS),
      path: fc.constantFrom(...PATHS),
      apiId: fc.constantFrom(...APIS),
      apiName: fc.constantFrom('Orders', 'Customers'),
      operation: fc.constantFrom(...OPERATIONS),
      status: fc.constantFrom(...STATUSES),
      durationMs: fc.oneof(
        fc.constantFrom(0, 0.5, 1, 10, 10.25, 250, 1000),
        fc.double({ min: 0, max: 5000, noNaN: true }),
      ),
      bytesIn: fc.nat({ max: 1_000_000 }),
      bytesOut: fc.nat({ max: 1_000_000 }),
      targetUrl: fc.constantFrom('https://backend.test/orders/********', 'http://127.0.0.1:9/x'),
      outcome: fc.constantFrom(...MONITORING_OUTCOMES),
      clientIp: fc.constantFrom('127.0.0.1', '::1', '10.0.0.7'),
      identity: fc.constantFrom('public', 'apiKey:gh_12', 'jwt:alice'),
      reason: fc.constantFrom('no passthrough endpoint', 'upstream refused the connection'),
      instance: fc.constantFrom('gw-a', 'gw-b', 'GW-A'),
      viaAllOperations: fc.constant(true),
    },
    { requiredKeys: REQUIRED_RECORD_KEYS },
  );
}

/** Half-second steps over 30 seconds. */
export const newRecord = recordArbitrary(SPAN_MS, 500);
/** Steps of a minute and a half over five hours: whole hours and 5-minute buckets, answered from roll-ups. */
export const WIDE_SPAN_MS = 5 * 3_600_000;
export const newWideRecord = recordArbitrary(WIDE_SPAN_MS, 90_000);
/** Steps of 24 minutes over three days: whole days, answered from the daily roll-ups, and hours at the ends. */
export const DAYS_SPAN_MS = 3 * 86_400_000;
export const newDaysRecord = recordArbitrary(DAYS_SPAN_MS, 24 * 60_000);

function filterParts(spanMs: number): { [K in keyof MonitoringFilter]-?: fc.Arbitrary<MonitoringFilter[K]> } {
  const margin = Math.max(2_000, spanMs / 10);
  return {
    startMs: fc.integer({ min: -margin, max: spanMs + margin }).map((offset) => BASE_MS + offset),
    endMs: fc.integer({ min: -margin, max: spanMs + margin }).map((offset) => BASE_MS + offset),
    apiId: fc.constantFrom(...APIS, 'api-missing'),
    operation: fc.constantFrom(...OPERATIONS, 'PUT /nowhere'),
    status: fc.oneof(
      fc.constantFrom(1, 2, 3, 4, 5).map((classOf) => ({ classOf })),
      fc.constantFrom(...STATUSES, 302).map((code) => ({ code })),
    ),
    method: fc.constantFrom(...METHODS, 'Post', 'PATCH'),
    minDurationMs: fc.constantFrom(0, 0.5, 1, 10, 10.25, 250, 999.5, 4000),
    pathPrefix: fc.constantFrom('/', '/orders', '/orders/1', '/Orders', '/caf', '/café', '/日', '/x'),
    agentGroupId: fc.constantFrom(...AGENT_GROUPS, 'nowhere'),
    outcome: fc.constantFrom(...MONITORING_OUTCOMES),
    instance: fc.constantFrom('gw-a', 'gw-b', 'gw-c'),
    viaAllOperations: fc.boolean(),
  };
}

/** Up to three filters at once: with more, almost nothing would match and bugs would hide. */
export function filterArbitrary(spanMs: number): fc.Arbitrary<MonitoringFilter> {
  const parts = filterParts(spanMs);
  return fc
    .shuffledSubarray(Object.keys(parts) as (keyof MonitoringFilter)[], { maxLength: 3 })
    .chain(
      (keys) =>
        fc.record(Object.fromEntries(keys.map((key) => [key, parts[key]]))) as fc.Arbitrary<MonitoringFilter>,
    );
}

export const filter = filterArbitrary(SPAN_MS);
export const wideFilter = filterArbitrary(WIDE_SPAN_MS);
export const daysFilter = filterArbitrary(DAYS_SPAN_MS);

export function queryArbitrary(spanMs: number): fc.Arbitrary<MonitoringQuery> {
  return fc
    .tuple(filterArbitrary(spanMs), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 15 }))
    .map(([f, pageNumber, pageSize]) => ({ ...f, pageNumber, pageSize }));
}

export const query = queryArbitrary(SPAN_MS);
export const wideQuery = queryArbitrary(WIDE_SPAN_MS);

/** The filter semantics, written the obvious way. */
export function referenceMatches(record: MonitoringRecord, f: MonitoringFilter): boolean {
  const time = Date.parse(record.time);
  if (f.startMs !== undefined && time < f.startMs) return false;
  if (f.endMs !== undefined && time >= f.endMs) return false;
  if (f.apiId !== undefined && record.apiId !== f.apiId) return false;
  if (f.operation !== undefined && record.operation !== f.operation) return false;
  if (f.status !== undefined) {
    if (
      'code' in f.status
        ? record.status !== f.status.code
        : Math.floor(record.status / 100) !== f.status.classOf
    ) {
      return false;
    }
  }
  if (f.method !== undefined && record.method.toUpperCase() !== f.method.toUpperCase()) return false;
  if (f.minDurationMs !== undefined && record.durationMs < f.minDurationMs) return false;
  if (f.pathPrefix !== undefined && !record.path.startsWith(f.pathPrefix)) return false;
  if (f.agentGroupId !== undefined && record.agentGroupId !== f.agentGroupId) return false;
  if (f.outcome !== undefined && record.outcome !== f.outcome) return false;
  if (f.instance !== undefined && record.instance !== f.instance) return false;
  if (f.viaAllOperations !== undefined && (record.viaAllOperations === true) !== f.viaAllOperations)
    return false;
  return true;
}

export function newestFirst(a: MonitoringRecord, b: MonitoringRecord): number {
  return Date.parse(b.time) - Date.parse(a.time) || b.id - a.id;
}

export function referenceQuery(
  records: readonly MonitoringRecord[],
  q: MonitoringQuery,
): { ids: number[]; totalCount: number } {
  const matching = records.filter((record) => referenceMatches(record, q)).sort(newestFirst);
  const start = (q.pageNumber - 1) * q.pageSize;
  return { ids: matching.slice(start, start + q.pageSize).map((r) => r.id), totalCount: matching.length };
}

/** Nearest-rank percentile of sorted values. */
export function nearestRank(sorted: readonly number[], p: number): number {
  return sorted[Math.max(1, Math.ceil(p * sorted.length)) - 1]!;
}

const MONITORING_STORES: StoreKind<SqlMonitoringStore> = {
  prefix: 'gatehouse-monitoring-',
  tables: ['monitoring_records', 'monitoring_records_removed', 'monitoring_rollups'],
  open: (database, now) => new SqlMonitoringStore(database, now),
};

/** Monitoring stores over a database of one engine. */
export type StoreFixture = EngineStoreFixture<SqlMonitoringStore>;
export const StoreFixture = {
  create: (engine: EngineKind): Promise<StoreFixture> => EngineStoreFixture.create(MONITORING_STORES, engine),
};

export function record(overrides: Partial<NewMonitoringRecord> = {}): NewMonitoringRecord {
  return {
    time: new Date(BASE_MS).toISOString(),
    agentGroupId: 'default',
    agentGroupName: 'Default',
    method: 'GET',
    path: '/orders/1',
    status: 200,
    durationMs: 12.5,
    bytesIn: 0,
    bytesOut: 100,
    outcome: 'forwarded',
    clientIp: '127.0.0.1',
    ...overrides,
  };
}
