import type { MonitoringOutcome, MonitoringRecord, NewMonitoringRecord } from './monitoring-record.js';

/** `404` matches that code only; `{ classOf: 4 }` matches 400–499. */
export type StatusFilter = { code: number } | { classOf: 1 | 2 | 3 | 4 | 5 };

/** Filters shared by the list and the summary, already validated. Times are epoch milliseconds. */
export interface MonitoringFilter {
  /** Inclusive. */
  startMs?: number;
  /** Exclusive. */
  endMs?: number;
  /** Exact match. */
  apiId?: string;
  /** Exact match, e.g. `GET /orders/{id}` or `*`. */
  operation?: string;
  status?: StatusFilter;
  /** Case-insensitive. */
  method?: string;
  /** Duration at least this many milliseconds. */
  minDurationMs?: number;
  /** Prefix of the request path, case-sensitive. */
  pathPrefix?: string;
  /** Exact match. */
  agentGroupId?: string;
  outcome?: MonitoringOutcome;
  /** Exact match: the instance whose gateway served the request. */
  instance?: string;
  /** Whether the All operations entry served the request (`viaAllOperations` of the record). */
  viaAllOperations?: boolean;
}

export interface MonitoringQuery extends MonitoringFilter {
  /** 1-based. */
  pageNumber: number;
  pageSize: number;
}

export interface MonitoringPage {
  /** Newest first: request time descending, then id descending. */
  items: MonitoringRecord[];
  totalCount: number;
}

export type StatusClassName = '1xx' | '2xx' | '3xx' | '4xx' | '5xx' | 'other';
export type StatusCounts = Record<StatusClassName, number>;

/** Duration percentiles in milliseconds; null when there is nothing to measure. */
export interface DurationPercentiles {
  p50: number | null;
  p95: number | null;
  p99: number | null;
}

export interface SummaryBucket extends DurationPercentiles {
  /** ISO 8601 UTC: the bucket covers [start, start + interval). */
  start: string;
  count: number;
  status: StatusCounts;
}

export interface SummaryTotals extends DurationPercentiles {
  count: number;
  status: StatusCounts;
  minDurationMs: number | null;
  maxDurationMs: number | null;
  averageDurationMs: number | null;
}

export interface SummaryRequest {
  filter: MonitoringFilter & { startMs: number; endMs: number };
  intervalMs: number;
}

export interface MonitoringSummaryData {
  buckets: SummaryBucket[];
  totals: SummaryTotals;
}

export interface MonitoringStoreStats {
  records: number;
}

/**
 * The durable API Monitoring store: appended in batches by the recorder, read by the monitoring endpoints,
 * trimmed by retention.
 */
export interface MonitoringRetentionPolicy {
  now: number;
  maxAgeMs: number;
  /** Once aborted, the run stops before its next batch; what is left waits for the next run. */
  signal?: AbortSignal;
}

export interface MonitoringStore {
  /** Assigns ids (increasing) and resolves once the records are durable and visible to queries. */
  append: (records: readonly NewMonitoringRecord[]) => Promise<MonitoringRecord[]>;
  /** `append` for the recorder, which only counts the records kept (those with a usable time): resolves with that count. */
  write: (records: readonly NewMonitoringRecord[]) => Promise<number>;
  query: (query: MonitoringQuery) => Promise<MonitoringPage>;
  get: (id: number) => Promise<MonitoringRecord | undefined>;
  summarize: (request: SummaryRequest) => Promise<MonitoringSummaryData>;
  /** Time of the oldest record held, if any. */
  oldestTimeMs: () => Promise<number | undefined>;
  /** Removes records whose request time is before `now - maxAgeMs` (whole hours: see the store). */
  applyRetention: (policy: MonitoringRetentionPolicy) => Promise<{ removed: number }>;
  stats: () => Promise<MonitoringStoreStats>;
  close: () => Promise<void>;
}
