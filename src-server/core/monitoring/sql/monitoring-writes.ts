import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Database, Tx } from '../../storage/database.js';
import type { MonitoringRecord } from '../monitoring-record.js';
import { RollupDeltas } from './monitoring-rollups.js';
import { toRecordRow } from './monitoring-rows.js';

export const MONITORING_SEQUENCE = 'monitoring_records';

/**
 * Records encoded and inserted in one go. A batch of thousands is one transaction (one commit, one roll-up merge:
 * what a record costs shrinks with the batch), but it is written in slices with the event loop free in between, so
 * the gateway's requests never wait for a whole batch (on SQLite an insert holds the thread; 100 rows take well
 * under a millisecond).
 */
export const INSERT_SLICE = 100;

/** Writes records that have their ids, and their roll-ups, in the caller's transaction. */
export async function insertRecords(
  database: Database,
  trx: Tx,
  records: readonly { record: MonitoringRecord; timeMs: number }[],
  recordedAt: number,
): Promise<void> {
  const deltas = new RollupDeltas();
  for (let start = 0; start < records.length; start += INSERT_SLICE) {
    if (start > 0) await nextTurn();
    const rows = [];
    for (let index = start; index < Math.min(records.length, start + INSERT_SLICE); index++) {
      const { record, timeMs } = records[index]!;
      deltas.add({
        timeMs,
        status: record.status,
        durationMs: record.durationMs,
        apiId: record.apiId,
        agentGroupId: record.agentGroupId,
      });
      rows.push(toRecordRow(record, timeMs, recordedAt));
    }
    await database.bulkInsert(trx, 'monitoring_records', rows);
  }
  await deltas.apply(database, trx);
}
