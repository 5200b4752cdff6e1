import type { MonitoringOutcome, MonitoringRecord } from '../contracts/monitoring-schemas.js';

// From the zod-free constants: monitoring's schemas are its routes' (loaded at their first request).
export { MONITORING_OUTCOMES } from '../contracts/constants.js';
/**
 * One API Monitoring record: every request that reaches a gateway listener, passthrough or not. Never holds a
 * secret: the target URL is the masked rendering, the path carries no query string. The stored record is the
 * one the API returns (`MonitoringRecordSchema`).
 */
export type { MonitoringOutcome, MonitoringRecord };

export type NewMonitoringRecord = Omit<MonitoringRecord, 'id'>;

/** Where the gateway reports requests. Must not block or throw: recording stays off the hot path. */
export interface MonitoringSink {
  /** `traceparent`: the request's trace context, for callers waiting on one request; never stored. */
  record: (record: NewMonitoringRecord, traceparent?: string) => void;
}
