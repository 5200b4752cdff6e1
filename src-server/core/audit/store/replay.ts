import type { LogPosition, SegmentLog, WarningReporter } from '../../storage/index.js';
import type { AuditIndex } from './audit-index.js';
import { decodeRecord } from './record-codec.js';

/**
 * Applies the records from `from` on to the index (the tail after a snapshot, or the whole log when
 * rebuilding). Rows join the lists in one batch at the end. Returns how many records were applied.
 */
export async function replayLog(
  log: SegmentLog,
  index: AuditIndex,
  from: LogPosition,
  warn: WarningReporter,
): Promise<number> {
  const added: number[] = [];
  const removed: number[] = [];
  let applied = 0;
  for await (const { location, payload } of log.scan(from)) {
    let record;
    try {
      record = decodeRecord(payload);
    } catch (error) {
      warn('Skipped an audit record that cannot be decoded', {
        ...location,
        error: (error as Error).message,
      });
      index.advanceCovered(location);
      continue;
    }
    if (record.kind === 'tombstone') {
      for (const row of index.markRemoved(record.ids, location)) removed.push(row);
    } else if (record.entry.id <= index.highestAppliedId) {
      warn('Skipped an audit record whose id is not above the ids before it', {
        ...location,
        id: record.entry.id,
      });
      index.advanceCovered(location);
      continue;
    } else {
      const timeMs = Date.parse(record.entry.timestamp);
      added.push(index.addRow(index.pendingRow(record.entry, timeMs, record.hash), location, false));
    }
    applied++;
  }
  index.lists.dropDead(removed);
  index.lists.insertMany(added);
  return applied;
}
