import { open, unlink } from 'node:fs/promises';
import { writeFully } from './durable-fs.js';
import { encodeFrame } from './frame.js';
import type { SegmentFile } from './segment-file.js';
import { SegmentScanner, type Corruption } from './segment-scanner.js';
import type { RecordLocation } from './types.js';

const WRITE_CHUNK_BYTES = 4 * 1024 * 1024;

/**
 * Decides a record's fate during compaction: `null` drops it, the same payload keeps it as is, another
 * payload replaces it (e.g. a tombstone record with fewer ids).
 */
export type RewriteDecision = (payload: Buffer, location: RecordLocation) => Uint8Array | null;

/** Where the kept records moved; parallel arrays in offset order. */
export interface Relocations {
  oldOffsets: number[];
  newOffsets: number[];
  newSizes: number[];
}

export interface RewriteOutcome {
  relocations: Relocations;
  /** Bytes of the new file; 0 means nothing was kept and no file was left behind. */
  size: number;
}

/** Writes the kept records of `source` to `temporaryPath` and fsyncs it; the caller renames it into place. */
export async function rewriteSegmentFile(
  source: SegmentFile,
  temporaryPath: string,
  decide: RewriteDecision,
  maxRecordBytes: number,
  onCorruption: (corruption: Corruption) => void,
): Promise<RewriteOutcome> {
  const relocations: Relocations = { oldOffsets: [], newOffsets: [], newSizes: [] };
  const output = await open(temporaryPath, 'wx');
  let size = 0;
  try {
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let pendingStart = 0;
    const scanner = new SegmentScanner({
      segment: source.seq,
      handle: source.handle,
      from: 0,
      end: source.size,
      maxRecordBytes,
      onCorruption,
    });
    for await (const { location, payload } of scanner.records()) {
      const kept = decide(payload, location);
      if (kept === null) continue;
      const frame = encodeFrame(kept);
      relocations.oldOffsets.push(location.offset);
      relocations.newOffsets.push(size);
      relocations.newSizes.push(kept.length);
      pending.push(frame);
      pendingBytes += frame.length;
      size += frame.length;
      if (pendingBytes >= WRITE_CHUNK_BYTES) {
        await writeFully(output, Buffer.concat(pending, pendingBytes), pendingStart);
        pending = [];
        pendingBytes = 0;
        pendingStart = size;
      }
    }
    if (pendingBytes > 0) await writeFully(output, Buffer.concat(pending, pendingBytes), pendingStart);
    await output.sync();
  } catch (error) {
    await output.close();
    await unlink(temporaryPath);
    throw error;
  }
  await output.close();
  if (size === 0) await unlink(temporaryPath);
  return { relocations, size };
}
