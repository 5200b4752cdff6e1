/** What happened to a request that reached a gateway listener. */
export type MonitoringOutcome =
  | 'forwarded'
  | 'unmatched'
  | 'method-not-allowed'
  | 'preflight'
  | 'unauthenticated'
  | 'denied'
  | 'throttled'
  | 'payload-too-large'
  | 'refused'
  | 'configuration-error'
  | 'upstream-error'
  | 'timeout'
  | 'client-aborted';

/** Every outcome (filters and validation list them). */
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
] as const satisfies readonly MonitoringOutcome[];

// Fails to compile when an outcome is added to the union but not to the list.
const _everyOutcomeListed: Exclude<MonitoringOutcome, (typeof MONITORING_OUTCOMES)[number]> extends never
  ? true
  : never = true;

/**
 * One API Monitoring record: every request that reaches a gateway listener, passthrough or not. Never holds a
 * secret: the target URL is the masked rendering, the path carries no query string.
 */
export interface MonitoringRecord {
  /** Assigned by the store. */
  id: number;
  /** ISO 8601 UTC with milliseconds: when the request arrived. */
  time: string;
  agentGroupId: string;
  agentGroupName: string;
  method: string;
  /** The request path without its query string. */
  path: string;
  apiId?: string;
  apiName?: string;
  /** Operation key (`GET /orders/{id}`), or `*` when the `All operations` entry handled it. */
  operation?: string;
  status: number;
  durationMs: number;
  bytesIn: number;
  bytesOut: number;
  /** Masked target URL (secrets as `********`). */
  targetUrl?: string;
  outcome: MonitoringOutcome;
  clientIp: string;
  /** Who the policy recognised: `apiKey:<prefix>`, `jwt:<sub>`, `public`. */
  identity?: string;
  /** Short reason for a refusal or failure; no internals, no values. */
  reason?: string;
}

export type NewMonitoringRecord = Omit<MonitoringRecord, 'id'>;

/** Where the gateway reports requests. Must not block or throw: recording stays off the hot path. */
export interface MonitoringSink {
  /** `traceparent`: the request's trace context, for callers waiting on one request; never stored. */
  record: (record: NewMonitoringRecord, traceparent?: string) => void;
}
