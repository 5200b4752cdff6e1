import type { MonitoringRecordTable } from '../../storage/schema.js';
import { isoTime } from '../iso-time.js';
import type { MonitoringRecord, MonitoringOutcome } from '../monitoring-record.js';

/**
 * A monitoring record and its row: the one place that maps fields to columns (a new field of the record is a
 * column in a migration and a line in each function here).
 */
export function toRecordRow(
  record: MonitoringRecord,
  timeMs: number,
  recordedAt: number,
): MonitoringRecordTable {
  return {
    id: record.id,
    time_ms: timeMs,
    agent_group_id: record.agentGroupId,
    agent_group_name: record.agentGroupName,
    method: record.method,
    path: record.path,
    api_id: record.apiId ?? null,
    api_name: record.apiName ?? null,
    operation: record.operation ?? null,
    status: record.status,
    duration_ms: record.durationMs,
    bytes_in: record.bytesIn,
    bytes_out: record.bytesOut,
    target_url: record.targetUrl ?? null,
    outcome: record.outcome,
    client_ip: record.clientIp,
    identity: record.identity ?? null,
    reason: record.reason ?? null,
    recorded_at: recordedAt,
    via_all_operations: record.viaAllOperations ? 1 : null,
    capture: record.capture ? JSON.stringify(record.capture) : null,
    instance: record.instance ?? null,
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
