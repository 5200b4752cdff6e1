import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { SegmentScanner, type ScannedRecord } from './segment-scanner.js';

const SEGMENT_NAME = /^(\d{8})\.g(\d+)\.seg$/;
const MAX_RECORD_BYTES = 64 * 1024 * 1024;

/** Damage found while reading (a torn tail, a bad frame): reported, skipped. */
export type DamageReporter = (details: { file: string; offset: number; reason: string }) => void;

/**
 * The segment files of a log written before the SQL storage, in order: per sequence number the newest generation
 * (compaction wrote a new generation before deleting the old one). Nothing is changed on disk.
 */
export async function segmentFilesOf(logDir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(logDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const newest = new Map<number, number>();
  for (const name of names) {
    const match = SEGMENT_NAME.exec(name);
    if (!match) continue;
    const seq = Number(match[1]);
    newest.set(seq, Math.max(newest.get(seq) ?? -1, Number(match[2])));
  }
  return [...newest.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([seq, generation]) => join(logDir, `${String(seq).padStart(8, '0')}.g${generation}.seg`));
}

/** Every checksum-valid record of the log, in log order. */
export async function* readSegmentLog(
  logDir: string,
  onDamage: DamageReporter,
): AsyncGenerator<ScannedRecord> {
  const files = await segmentFilesOf(logDir);
  for (const [segment, file] of files.entries()) {
    const handle = await open(file, 'r');
    try {
      const scanner = new SegmentScanner({
        segment,
        handle,
        from: 0,
        end: (await stat(file)).size,
        maxRecordBytes: MAX_RECORD_BYTES,
        onCorruption: (corruption) =>
          onDamage({ file, offset: corruption.offset, reason: corruption.reason }),
      });
      yield* scanner.records();
    } finally {
      await handle.close();
    }
  }
}
