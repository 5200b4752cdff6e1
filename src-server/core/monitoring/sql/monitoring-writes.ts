import type { Database, Tx } from '../../storage/database.js';
import type { MonitoringRecord } from '../monitoring-record.js';
import { RollupDeltas } from './monitoring-rollups.js';
import { toRecordRow } from './monitoring-rows.js';

export const MONITORING_SEQUENCE = 'monitoring_records';

/** Writes records that have their ids, and their roll-ups, in the caller's transaction. */
export async function insertRecords(
  database: Database,
  trx: Tx,
  records: readonly { record: MonitoringRecord; timeMs: number }[],
  recordedAt: number,
): Promise<void> {
  const deltas = new RollupDeltas();
  const rows = records.map(({ record, timeMs }) => {
    deltas.add({
      timeMs,
      status: record.status,
      durationMs: record.durationMs,
      apiId: record.apiId,
      agentGroupId: record.agentGroupId,
    });
    return toRecordRow(record, timeMs, recordedAt);
  });
  await database.bulkInsert(trx, 'monitoring_records', rows);
  await deltas.apply(database, trx);
}
