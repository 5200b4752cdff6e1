import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Database, Tx } from '../../storage/database.js';
import type { NewMonitoringRecord } from '../monitoring-record.js';
import { RollupDeltas, type RollupWriter } from './monitoring-rollups.js';
import {
  RECORD_WRITE_COLUMNS,
  rolledRecordOf,
  sharedColumnsOf,
  writeRecordValues,
} from './monitoring-rows.js';
import { unpackRows, type PackedRows } from './monitoring-row-packing.js';

export const MONITORING_SEQUENCE = 'monitoring_records';

/**
 * Records encoded and inserted in one go. A batch of thousands is one transaction (one commit, one roll-up merge:
 * what a record costs shrinks with the batch), but it is encoded and written in slices with the event loop free in
 * between, so the gateway's requests never wait for a whole batch (on SQLite an insert holds the thread; 100 rows
 * take well under a millisecond).
 */
export const INSERT_SLICE = 100;

/** Records from the gateway, and their times (NaN: left out, see `recordTimeMs`). */
export interface RecordBatch {
  records: readonly NewMonitoringRecord[];
  times: Float64Array;
  /** How many have a usable time. */
  kept: number;
}

const WIDTH = RECORD_WRITE_COLUMNS.length;

/**
 * Writes the kept records of the batches and their roll-ups in the caller's transaction: ids `ids`, `ids + 1`… in
 * order, or each its own from a list (records converted with their ids). Each record goes straight from the
 * gateway's object to the row's values.
 */
export async function insertRecords(
  database: Database,
  trx: Tx,
  batches: readonly RecordBatch[],
  ids: number | readonly number[],
  recordedAt: number,
): Promise<void> {
  const deltas = new RollupDeltas();
  const values = new Array<unknown>(INSERT_SLICE * WIDTH);
  let written = 0;
  const idOf = typeof ids === 'number' ? () => ids + written : () => ids[written]!;
  let rows = 0;
  const flush = async () => {
    await database.insertValues(trx, 'monitoring_records', RECORD_WRITE_COLUMNS, values, rows);
    rows = 0;
    await nextTurn();
  };
  for (const { records, times } of batches) {
    for (let index = 0; index < records.length; index++) {
      const timeMs = times[index]!;
      if (Number.isNaN(timeMs)) continue;
      const at = rows * WIDTH;
      writeRecordValues(records[index]!, timeMs, idOf(), recordedAt, values, at);
      written++;
      deltas.add(rolledRecordOf(values, at));
      if (++rows === INSERT_SLICE) await flush();
    }
  }
  if (rows > 0) await flush();
  await deltas.apply(database, trx);
  // SQLite's statements resolve at once (no turn of the loop between them): the commit that follows gets a turn
  // of its own, so the roll-up merge and the commit never hold the gateway's requests together.
  await nextTurn();
}

/** What writes rows of values in a transaction: the Database, or the monitoring writer thread's connection. */
export type RowWriter = Pick<Database, 'insertValues' | 'reserveIds'> & RollupWriter;

/** How `insertPackedRows` goes from one slice of rows to the next. */
export interface PackedWriteSteps {
  /** Whether to commit what is written so far instead of going on (the rest goes in a later transaction). */
  stopEarly?: (written: number) => boolean;
  /** Between slices: on the main thread, a turn of the event loop. */
  betweenSlices?: () => Promise<void>;
}

/**
 * Writes packed rows from `from` on, and their roll-ups, in the caller's transaction, INSERT_SLICE rows at a time,
 * until the end or until `stopEarly` says so. Returns the first id and how many rows were written: the ids are
 * contiguous (the sequence's row is locked for the transaction).
 */
export async function insertPackedRows(
  writer: RowWriter,
  trx: Tx,
  packed: PackedRows,
  from: number,
  steps: PackedWriteSteps = {},
): Promise<{ firstId: number; rows: number }> {
  const deltas = new RollupDeltas();
  const values = new Array<unknown>(INSERT_SLICE * WIDTH);
  let firstId: number | undefined;
  let written = 0;
  while (from + written < packed.rows) {
    if (written > 0) {
      if (steps.stopEarly?.(written)) break;
      await steps.betweenSlices?.();
    }
    const rows = Math.min(INSERT_SLICE, packed.rows - from - written);
    unpackRows(packed, from + written, rows, values);
    const first = await writer.reserveIds(trx, MONITORING_SEQUENCE, rows);
    firstId ??= first;
    for (let row = 0; row < rows; row++) {
      const at = row * WIDTH;
      values[at] = first + row;
      deltas.add(rolledRecordOf(values, at));
    }
    await writer.insertValues(
      trx,
      'monitoring_records',
      RECORD_WRITE_COLUMNS,
      values,
      rows,
      sharedColumnsOf(values, rows),
    );
    written += rows;
  }
  await deltas.apply(writer, trx);
  return { firstId: firstId ?? 0, rows: written };
}
