import { FRAME_HEADER_BYTES, type Relocations, type SegmentLog } from '../../storage/index.js';
import type { AuditIndex } from './audit-index.js';
import {
  decodeRecord,
  encodeTombstoneRecord,
  RECORD_KIND_ENTRY,
  RECORD_KIND_TOMBSTONE,
} from './record-codec.js';

const TOMBSTONE_ID_BYTES = 4;

/** Bytes compaction would free per sealed segment: dead entry records, plus tombstone ids no longer needed. */
export function reclaimableBytes(index: AuditIndex): Map<number, number> {
  const { columns } = index;
  const reclaimable = new Map<number, number>();
  const neededTombstoneIds = new Map<number, number>();
  for (let row = 0; row < columns.count; row++) {
    if (columns.live[row]) continue;
    const segment = columns.segments[row]!;
    reclaimable.set(segment, (reclaimable.get(segment) ?? 0) + FRAME_HEADER_BYTES + columns.sizes[row]!);
    const tombstoneSegment = columns.tombstoneSegments[row]!;
    neededTombstoneIds.set(tombstoneSegment, (neededTombstoneIds.get(tombstoneSegment) ?? 0) + 1);
  }
  for (const [segment, ids] of index.tombstoneIdCounts) {
    const unneeded = ids - (neededTombstoneIds.get(segment) ?? 0);
    if (unneeded > 0)
      reclaimable.set(segment, (reclaimable.get(segment) ?? 0) + unneeded * TOMBSTONE_ID_BYTES);
  }
  return reclaimable;
}

/** Rewrites every sealed segment at least `minRatio` reclaimable. Returns how many were rewritten. */
export async function compactSegments(log: SegmentLog, index: AuditIndex, minRatio = 0.5): Promise<number> {
  const reclaimable = reclaimableBytes(index);
  let compacted = 0;
  for (const segment of log.segments()) {
    if (!segment.sealed) continue;
    const bytes = reclaimable.get(segment.seq) ?? 0;
    if (bytes > 0 && bytes >= segment.size * minRatio) {
      await compactSegment(log, index, segment.seq);
      compacted++;
    }
  }
  return compacted;
}

/**
 * Keeps the live entries of segment `seq` and the tombstone ids that still hide an entry elsewhere. Rows of
 * a segment are contiguous (rows are in log order) and appends only add rows at the end, so row numbers
 * stay valid while the rewrite runs.
 */
async function compactSegment(log: SegmentLog, index: AuditIndex, seq: number): Promise<void> {
  const { columns } = index;
  const firstRow = firstRowOfSegment(index, seq);
  let cursor = firstRow;
  let keptTombstoneIds = 0;
  await log.rewriteSegment(
    seq,
    (payload, location) => {
      if (payload[0] === RECORD_KIND_ENTRY) {
        while (
          cursor < columns.count &&
          columns.segments[cursor] === seq &&
          columns.offsets[cursor]! < location.offset
        ) {
          cursor++;
        }
        const known =
          cursor < columns.count &&
          columns.segments[cursor] === seq &&
          columns.offsets[cursor] === location.offset;
        // An entry record the index does not know is kept: dropping data on a guess is worse than keeping it.
        return known && !columns.live[cursor] ? null : payload;
      }
      if (payload[0] === RECORD_KIND_TOMBSTONE) {
        const decoded = decodeRecord(payload);
        if (decoded.kind !== 'tombstone') return payload;
        const needed = decoded.ids.filter((id) => {
          const row = columns.findRow(id);
          return row >= 0 && columns.segments[row] !== seq;
        });
        keptTombstoneIds += needed.length;
        if (needed.length === 0) return null;
        return needed.length === decoded.ids.length ? payload : encodeTombstoneRecord(needed);
      }
      return payload;
    },
    (relocations, deleted) => applyRelocations(index, seq, firstRow, relocations, deleted, keptTombstoneIds),
  );
}

function applyRelocations(
  index: AuditIndex,
  seq: number,
  firstRow: number,
  relocations: Relocations,
  deleted: boolean,
  keptTombstoneIds: number,
): void {
  const { columns } = index;
  const dropped = new Uint8Array(columns.count);
  let droppedCount = 0;
  const lostLiveRows: number[] = [];
  let next = 0;
  for (let row = firstRow; row < columns.count && columns.segments[row] === seq; row++) {
    while (next < relocations.oldOffsets.length && relocations.oldOffsets[next]! < columns.offsets[row]!)
      next++;
    if (!deleted && relocations.oldOffsets[next] === columns.offsets[row]) {
      columns.offsets[row] = relocations.newOffsets[next]!;
      columns.sizes[row] = relocations.newSizes[next]!;
    } else {
      dropped[row] = 1;
      droppedCount++;
      if (columns.live[row]) lostLiveRows.push(row);
    }
  }
  // Only possible when the rewrite skipped a corrupt record (already reported by the scanner).
  if (lostLiveRows.length > 0) {
    for (const row of lostLiveRows) columns.live[row] = 0;
    index.liveCount -= lostLiveRows.length;
    index.lists.dropDead(lostLiveRows);
  }
  if (keptTombstoneIds > 0) index.tombstoneIdCounts.set(seq, keptTombstoneIds);
  else index.tombstoneIdCounts.delete(seq);
  if (droppedCount > 0) index.purge((row) => dropped[row] === 0);
  index.version++;
}

function firstRowOfSegment(index: AuditIndex, seq: number): number {
  const { segments, count } = index.columns;
  let low = 0;
  let high = count;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (segments[middle]! < seq) low = middle + 1;
    else high = middle;
  }
  return low;
}
