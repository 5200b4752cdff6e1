import type { MonitoringRecordTable } from '../../storage/schema.js';
import { isoTime } from '../iso-time.js';
import type { RolledRecord } from './monitoring-rollups.js';
import type { MonitoringRecord, MonitoringOutcome, NewMonitoringRecord } from '../monitoring-record.js';
import {
  FIELD_LIMITS,
  nonNegative,
  optionalText,
  storedPath,
  storedStatus,
  text,
} from '../normalize-record.js';

/** The columns a new record is written to, in the order `writeRecordValues` puts its values. */
export const RECORD_WRITE_COLUMNS = [
  'id',
  'time_ms',
  'agent_group_id',
  'agent_group_name',
  'method',
  'path',
  'api_id',
  'api_name',
  'operation',
  'status',
  'duration_ms',
  'bytes_in',
  'bytes_out',
  'target_url',
  'outcome',
  'client_ip',
  'identity',
  'reason',
  'recorded_at',
  'via_all_operations',
  'capture',
  'instance',
] as const satisfies readonly (keyof MonitoringRecordTable)[];

/**
 * A record from the gateway, made safe to store (as `normalizeRecord` does) and mapped to its row: the values of
 * RECORD_WRITE_COLUMNS, written into `out` from `at`. The one place that maps fields to columns on the way in (a
 * new field of the record is a column in a migration, a line here and one in `recordOfRow`). One pass, no object
 * in between: every gateway request goes through here.
 */
export function writeRecordValues(
  input: NewMonitoringRecord,
  timeMs: number,
  id: number,
  recordedAt: number,
  out: unknown[],
  at: number,
): void {
  out[at] = id;
  out[at + 1] = timeMs;
  out[at + 2] = text(input.agentGroupId, FIELD_LIMITS.agentGroupId);
  out[at + 3] = text(input.agentGroupName, FIELD_LIMITS.agentGroupName);
  out[at + 4] = text(input.method, FIELD_LIMITS.method);
  out[at + 5] = storedPath(input.path);
  out[at + 6] = optionalText(input.apiId, FIELD_LIMITS.apiId) ?? null;
  out[at + 7] = optionalText(input.apiName, FIELD_LIMITS.apiName) ?? null;
  out[at + 8] = optionalText(input.operation, FIELD_LIMITS.operation) ?? null;
  out[at + 9] = storedStatus(input.status);
  out[at + 10] = nonNegative(input.durationMs);
  out[at + 11] = Math.round(nonNegative(input.bytesIn));
  out[at + 12] = Math.round(nonNegative(input.bytesOut));
  out[at + 13] = optionalText(input.targetUrl, FIELD_LIMITS.targetUrl) ?? null;
  out[at + 14] = text(input.outcome, FIELD_LIMITS.outcome);
  out[at + 15] = text(input.clientIp, FIELD_LIMITS.clientIp);
  out[at + 16] = optionalText(input.identity, FIELD_LIMITS.identity) ?? null;
  out[at + 17] = optionalText(input.reason, FIELD_LIMITS.reason) ?? null;
  out[at + 18] = recordedAt;
  out[at + 19] = input.viaAllOperations === true ? 1 : null;
  // Made by the gateway's capture, which bounds and masks it (gateway/exchange/capture.ts).
  out[at + 20] = input.capture ? JSON.stringify(input.capture) : null;
  out[at + 21] = optionalText(input.instance, FIELD_LIMITS.instance) ?? null;
}

/**
 * Columns that the rows of a slice often all hold the same value in, in groups that vary together: the batch and
 * the agent group (and what nearly every record leaves null), the client, the API. A group whose every column is the
 * same in every row of a slice is bound once per statement instead of once per row (`BulkWrites.insertValues`'
 * `shared`); whole groups, so that the writer prepares a few statements (8 at most), not one per combination of
 * columns. Binding a text is most of what a row costs better-sqlite3 (UTF-8 conversion and two copies).
 */
const SHAREABLE_GROUPS = [
  ['recorded_at', 'agent_group_id', 'agent_group_name', 'via_all_operations', 'capture', 'instance'],
  ['client_ip', 'identity', 'outcome', 'reason'],
  ['api_id', 'api_name', 'operation', 'method'],
] as const satisfies readonly (readonly (typeof RECORD_WRITE_COLUMNS)[number][])[];
const SHAREABLE_AT = SHAREABLE_GROUPS.map((group) => group.map((name) => RECORD_WRITE_COLUMNS.indexOf(name)));

/** The columns (a bit per position in RECORD_WRITE_COLUMNS) of whole SHAREABLE_GROUPS the same in all `rows` rows. */
export function sharedColumnsOf(values: readonly unknown[], rows: number): number {
  const width = RECORD_WRITE_COLUMNS.length;
  let shared = 0;
  for (const group of SHAREABLE_AT) {
    let same = true;
    for (let k = 0; k < group.length && same; k++) {
      const column = group[k]!;
      const first = values[column];
      for (let row = 1; row < rows; row++) {
        if (values[row * width + column] !== first) {
          same = false;
          break;
        }
      }
    }
    if (same) for (const column of group) shared |= 1 << column;
  }
  return shared;
}

/** What a row written by `writeRecordValues` at `at` adds to the roll-ups: the values as stored. */
export function rolledRecordOf(values: readonly unknown[], at: number): RolledRecord {
  return {
    timeMs: values[at + 1] as number,
    status: values[at + 9] as number,
    durationMs: values[at + 10] as number,
    apiId: (values[at + 6] as string | null) ?? undefined,
    agentGroupId: values[at + 2] as string,
  };
}

/** The columns a record is read back from. */
export const RECORD_COLUMNS = [
  'id',
  'time_ms',
  'agent_group_id',
  'agent_group_name',
  'method',
  'path',
  'api_id',
  'api_name',
  'operation',
  'status',
  'duration_ms',
  'bytes_in',
  'bytes_out',
  'target_url',
  'outcome',
  'client_ip',
  'identity',
  'reason',
  'via_all_operations',
  'instance',
] as const satisfies readonly (keyof MonitoringRecordTable)[];

export type RecordColumns = Pick<MonitoringRecordTable, (typeof RECORD_COLUMNS)[number]>;

/** The record of a row, fields in the order of the interface; absent optional fields left out. */
export function recordOfRow(row: RecordColumns): MonitoringRecord {
  const record = {
    id: row.id,
    time: isoTime(row.time_ms),
    agentGroupId: row.agent_group_id,
    agentGroupName: row.agent_group_name,
    method: row.method,
    path: row.path,
  } as MonitoringRecord;
  if (row.api_id !== null) record.apiId = row.api_id;
  if (row.api_name !== null) record.apiName = row.api_name;
  if (row.operation !== null) record.operation = row.operation;
  if (row.via_all_operations) record.viaAllOperations = true;
  record.status = row.status;
  record.durationMs = row.duration_ms;
  record.bytesIn = row.bytes_in;
  record.bytesOut = row.bytes_out;
  if (row.target_url !== null) record.targetUrl = row.target_url;
  record.outcome = row.outcome as MonitoringOutcome;
  record.clientIp = row.client_ip;
  if (row.identity !== null) record.identity = row.identity;
  if (row.reason !== null) record.reason = row.reason;
  if (row.instance !== null) record.instance = row.instance;
  return record;
}

/** The captured exchange of a row, kept as JSON; undefined when the API did not capture it. */
export function captureOfRow(capture: string | null): MonitoringRecord['capture'] {
  return capture === null ? undefined : (JSON.parse(capture) as MonitoringRecord['capture']);
}
