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
import {
  openMonitoringStore,
  type FileMonitoringStore,
} from '../../../src-server/core/monitoring/store/index.js';
import { tempDir } from '../../helpers/temp-dir.js';

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

/** Records with few distinct values and coarse times: many ties and many matches for every filter. */
export const newRecord: fc.Arbitrary<NewMonitoringRecord> = fc.record(
  {
    // Half-second steps over 30 seconds: equal times are common, so the id tie-break is exercised.
    time: fc
      .integer({ min: 0, max: SPAN_MS / 500 })
      .map((step) => new Date(BASE_MS + step * 500).toISOString()),
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
  },
  { requiredKeys: REQUIRED_RECORD_KEYS },
);

const filterParts: { [K in keyof MonitoringFilter]-?: fc.Arbitrary<MonitoringFilter[K]> } = {
  startMs: fc.integer({ min: -2_000, max: SPAN_MS + 2_000 }).map((offset) => BASE_MS + offset),
  endMs: fc.integer({ min: -2_000, max: SPAN_MS + 2_000 }).map((offset) => BASE_MS + offset),
  apiId: fc.constantFrom(...APIS, 'api-missing'),
  operation: fc.constantFrom(...OPERATIONS, 'PUT /nowhere'),
  status: fc.oneof(
    fc.constantFrom(1, 2, 3, 4, 5).map((classOf) => ({ classOf: classOf })),
    fc.constantFrom(...STATUSES, 302).map((code) => ({ code })),
  ),
  method: fc.constantFrom(...METHODS, 'Post', 'PATCH'),
  minDurationMs: fc.constantFrom(0, 0.5, 1, 10, 10.25, 250, 999.5, 4000),
  pathPrefix: fc.constantFrom('/', '/orders', '/orders/1', '/Orders', '/caf', '/café', '/日', '/x'),
  agentGroupId: fc.constantFrom(...AGENT_GROUPS, 'nowhere'),
  outcome: fc.constantFrom(...MONITORING_OUTCOMES),
};

/** Up to three filters at once: with more, almost nothing would match and bugs would hide. */
export const filter: fc.Arbitrary<MonitoringFilter> = fc
  .shuffledSubarray(Object.keys(filterParts) as (keyof MonitoringFilter)[], { maxLength: 3 })
  .chain(
    (keys) =>
      fc.record(
        Object.fromEntries(keys.map((key) => [key, filterParts[key]])),
      ) as fc.Arbitrary<MonitoringFilter>,
  );

export const query: fc.Arbitrary<MonitoringQuery> = fc
  .tuple(filter, fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 15 }))
  .map(([f, pageNumber, pageSize]) => ({ ...f, pageNumber, pageSize }));

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

/** A temp dir for stores; `dispose()` closes what was opened and removes the dir. */
export class StoreFixture {
  private readonly open = new Set<FileMonitoringStore>();
  private runs = 0;

  private constructor(
    readonly dir: string,
    private readonly remove: () => Promise<void>,
  ) {}

  static async create(): Promise<StoreFixture> {
    const dir = await tempDir('gatehouse-monitoring-');
    return new StoreFixture(dir.path, dir.remove);
  }

  /** A fresh directory for one property run. */
  nextDir(): string {
    return `${this.dir}/run-${this.runs++}`;
  }

  async openStore(
    dir: string,
    options: { segmentMaxBytes?: number; warnings?: string[] } = {},
  ): Promise<FileMonitoringStore> {
    const store = await openMonitoringStore({
      dir,
      segmentMaxBytes: options.segmentMaxBytes,
      onWarning: (message) => {
        if (!options.warnings) throw new Error(`unexpected warning: ${message}`);
        options.warnings.push(message);
      },
    });
    this.open.add(store);
    const close = store.close.bind(store);
    store.close = async () => {
      this.open.delete(store);
      await close();
    };
    return store;
  }

  async dispose(): Promise<void> {
    for (const store of [...this.open]) await store.close();
    await this.remove();
  }
}

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
