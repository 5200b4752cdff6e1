import { isoTime, parseIsoTime } from './iso-time.js';
import type { MonitoringRecord, NewMonitoringRecord } from './monitoring-record.js';

/** Longest values kept, in UTF-16 code units; longer ones are cut (a record stays small and bounded). */
export const FIELD_LIMITS = {
  agentGroupId: 200,
  agentGroupName: 200,
  method: 32,
  path: 2048,
  apiId: 200,
  apiName: 200,
  operation: 600,
  targetUrl: 2048,
  outcome: 40,
  clientIp: 64,
  identity: 200,
  reason: 500,
  instance: 200,
} as const;

export interface NormalizedRecord {
  /** A new object, its `id` 0 until the store assigns one. */
  record: MonitoringRecord;
  timeMs: number;
}

/**
 * Makes a record from the gateway safe to store: a parseable time (re-rendered canonically), bounded strings
 * without NUL characters,
 * finite non-negative numbers, no query string in the path. Returns undefined when the time is unusable.
 */
export function normalizeRecord(input: NewMonitoringRecord): NormalizedRecord | undefined {
  const timeMs = recordTimeMs(input);
  if (!Number.isFinite(timeMs)) return undefined;
  // Every field written, in one order: one object shape for all records (absent optional fields undefined).
  const record: MonitoringRecord = {
    id: 0,
    time: isoTime(timeMs),
    agentGroupId: text(input.agentGroupId, FIELD_LIMITS.agentGroupId),
    agentGroupName: text(input.agentGroupName, FIELD_LIMITS.agentGroupName),
    method: text(input.method, FIELD_LIMITS.method),
    path: storedPath(input.path),
    apiId: optionalText(input.apiId, FIELD_LIMITS.apiId),
    apiName: optionalText(input.apiName, FIELD_LIMITS.apiName),
    operation: optionalText(input.operation, FIELD_LIMITS.operation),
    viaAllOperations: input.viaAllOperations === true ? true : undefined,
    status: storedStatus(input.status),
    durationMs: nonNegative(input.durationMs),
    bytesIn: Math.round(nonNegative(input.bytesIn)),
    bytesOut: Math.round(nonNegative(input.bytesOut)),
    targetUrl: optionalText(input.targetUrl, FIELD_LIMITS.targetUrl),
    outcome: text(input.outcome, FIELD_LIMITS.outcome) as NewMonitoringRecord['outcome'],
    clientIp: text(input.clientIp, FIELD_LIMITS.clientIp),
    identity: optionalText(input.identity, FIELD_LIMITS.identity),
    reason: optionalText(input.reason, FIELD_LIMITS.reason),
    // Made by the gateway's capture, which bounds and masks it (gateway/exchange/capture.ts).
    capture: input.capture,
    instance: optionalText(input.instance, FIELD_LIMITS.instance),
  };
  return { record, timeMs };
}

/** The record's time in epoch milliseconds; NaN when it is unusable (the record is left out). */
export function recordTimeMs(input: NewMonitoringRecord): number {
  return typeof input.time === 'string' ? parseIsoTime(input.time) : Number.NaN;
}

/** The path bounded, without its query string. */
export function storedPath(value: unknown): string {
  const path = text(value, FIELD_LIMITS.path);
  const queryStart = path.indexOf('?');
  return queryStart === -1 ? path : path.slice(0, queryStart);
}

export function storedStatus(value: unknown): number {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 999
    ? (value as number)
    : 0;
}

export function text(value: unknown, max: number): string {
  if (typeof value !== 'string') return '';
  const bounded = value.length > max ? value.slice(0, max) : value;
  // PostgreSQL text cannot hold NUL; the same record must store alike on both engines.
  return bounded.includes('\u0000') ? bounded.replaceAll('\u0000', '\uFFFD') : bounded;
}

export function optionalText(value: unknown, max: number): string | undefined {
  return typeof value === 'string' ? text(value, max) : undefined;
}

export function nonNegative(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}
