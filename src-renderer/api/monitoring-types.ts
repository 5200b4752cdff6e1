/**
 * Payloads of the API monitoring endpoints, as the console uses them (schema names of the OpenAPI document at
 * `/swagger/v1/swagger.json` in the comments).
 */

export const MONITORING_OUTCOMES = [
  'forwarded',
  'unmatched',
  'method-not-allowed',
  'preflight',
  'unauthenticated',
  'denied',
  'throttled',
  'payload-too-large',
  'refused',
  'configuration-error',
  'upstream-error',
  'timeout',
  'client-aborted',
] as const;
export type MonitoringOutcome = (typeof MONITORING_OUTCOMES)[number];

/** `MonitoringRecord` — one request that reached a gateway listener. */
export interface MonitoringRecord {
  id: number;
  /** When the request arrived, ISO 8601 UTC. */
  time: string;
  agentGroupId: string;
  agentGroupName: string;
  method: string;
  /** As received, without the query string. */
  path: string;
  apiId?: string;
  apiName?: string;
  /** `GET /orders/{id}`, or `*` for All operations. */
  operation?: string;
  /** 0 when no response was sent. */
  status: number;
  durationMs: number;
  bytesIn: number;
  bytesOut: number;
  /** Secrets masked as `********`. */
  targetUrl?: string;
  outcome: MonitoringOutcome;
  clientIp: string;
  /** `apiKey:<prefix>`, `jwt:<sub>`, `public`. */
  identity?: string;
  reason?: string;
}

/** Filters shared by the list and the summary (the API's own parameter names). */
export interface MonitoringFilter {
  startDateTimeUtc?: string;
  endDateTimeUtc?: string;
  apiId?: string;
  operation?: string;
  /** A code (`404`) or a class (`4xx`). */
  status?: string;
  method?: string;
  minDurationMs?: number;
  /** Path prefix, case-sensitive. */
  path?: string;
  agentGroupId?: string;
  outcome?: MonitoringOutcome;
}

export interface MonitoringQuery extends MonitoringFilter {
  PageNumber: number;
  PageSize: number;
}

export const MONITORING_PAGE_SIZES = [25, 50, 100, 200, 500] as const;
export const MONITORING_DEFAULT_PAGE_SIZE = 50;

export type MonitoringStatusClass = '1xx' | '2xx' | '3xx' | '4xx' | '5xx' | 'other';
export type MonitoringStatusCounts = Record<MonitoringStatusClass, number>;

export type MonitoringSummaryInterval = '1m' | '5m' | '1h' | '1d';

/** `MonitoringSummaryBucket` — covers [start, start + interval); percentiles null when empty. */
export interface MonitoringSummaryBucket {
  start: string;
  count: number;
  status: MonitoringStatusCounts;
  p50: number | null;
  p95: number | null;
  p99: number | null;
}

/** `MonitoringSummary`. */
export interface MonitoringSummary {
  interval: MonitoringSummaryInterval;
  start: string;
  end: string;
  buckets: MonitoringSummaryBucket[];
  totals: {
    count: number;
    status: MonitoringStatusCounts;
    p50: number | null;
    p95: number | null;
    p99: number | null;
    minDurationMs: number | null;
    maxDurationMs: number | null;
    averageDurationMs: number | null;
  };
}

/** An API as the monitoring filters offer it (from `GET /api/v1/apis`). */
export interface MonitoredApiChoice {
  id: string;
  name: string;
  basePath: string;
}
