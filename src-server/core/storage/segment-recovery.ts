import { readdir, unlink } from 'node:fs/promises';
import * as path from 'node:path';
import { fsyncDirectory } from './durable-fs.js';
import {
  isTemporaryFileName,
  parseSegmentFileName,
  segmentFileName,
  type SegmentFile,
} from './segment-file.js';
import { SegmentScanner, type Corruption } from './segment-scanner.js';
import type { WarningReporter } from './types.js';

/**
 * Lists the segments of `dir`, one generation per sequence. Leftovers of an interrupted compaction (a
 * temporary file, or the older generation next to a completely written newer one) are removed and reported.
 */
export async function discoverSegments(
  dir: string,
  warn: WarningReporter,
): Promise<{ seq: number; generation: number }[]> {
  const newest = new Map<number, number>();
  const superseded: string[] = [];
  const names = await readdir(dir);
  for (const name of names) {
    if (isTemporaryFileName(name) && name.includes('.seg')) {
      await unlink(path.join(dir, name));
      warn('Removed a temporary segment file left by an interrupted compaction', { file: name });
      continue;
    }
    const parsed = parseSegmentFileName(name);
    if (!parsed) continue;
    const known = newest.get(parsed.seq);
    if (known === undefined) {
      newest.set(parsed.seq, parsed.generation);
    } else {
      superseded.push(segmentFileName(parsed.seq, Math.min(known, parsed.generation)));
      newest.set(parsed.seq, Math.max(known, parsed.generation));
    }
  }
  for (const name of superseded) {
    await unlink(path.join(dir, name));
    warn('Removed a segment generation superseded by a completed compaction', { file: name });
  }
  if (superseded.length > 0) await fsyncDirectory(dir);
  return [...newest.entries()]
    .map(([seq, generation]) => ({ seq, generation }))
    .sort((a, b) => a.seq - b.seq);
}

/**
 * Only the active segment can end in a torn write: a segment is fsync'd before the next one is created.
 * Its frames are all verified; the bytes after the last valid frame are truncated away.
 */
export async function recoverActiveSegment(
  segment: SegmentFile,
  maxRecordBytes: number,
  warn: WarningReporter,
): Promise<void> {
  const scanner = new SegmentScanner({
    segment: segment.seq,
    handle: segment.handle,
    from: 0,
    end: segment.size,
    maxRecordBytes,
    onCorruption: reporterFor(warn, 'active'),
  });
  for await (const _record of scanner.records()) {
    // Reading every record to the end is what moves validEnd past the last whole one.
  }
  if (scanner.validEnd < segment.size) {
    await segment.handle.truncate(scanner.validEnd);
    await segment.handle.sync();
    warn('Truncated an incomplete record at the end of the log', {
      segment: segment.seq,
      file: segment.path,
      validBytes: scanner.validEnd,
      droppedBytes: segment.size - scanner.validEnd,
    });
    segment.size = scanner.validEnd;
  }
}

export function reporterFor(
  warn: WarningReporter,
  kind: 'active' | 'sealed',
): (corruption: Corruption) => void {
  return (corruption) => {
    if (corruption.resumedAt === null && kind === 'active') return; // reported once truncated
    const details = { ...corruption };
    if (corruption.resumedAt === null) {
      warn('Segment ends with an unreadable record; it is ignored', details);
    } else {
      warn('Skipped a corrupt region of a segment', {
        ...details,
        skippedBytes: corruption.resumedAt - corruption.offset,
      });
    }
  };
}
