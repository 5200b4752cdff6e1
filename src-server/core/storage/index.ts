/**
 * Generic durable storage: an append-only log of framed records (`[u32 length][u32 crc32][payload]`) in
 * numbered segment files, with group commit, recovery of a torn tail, positional reads and compaction of
 * sealed segments. It knows nothing about what the payloads mean.
 */
export { crc32, crc32Portable, crc32Implementation } from './crc32.js';
export { FRAME_HEADER_BYTES, frameSize } from './frame.js';
export { FrameBatch, type FrameRun } from './frame-batch.js';
export { fsyncDirectory, writeFileAtomic } from './durable-fs.js';
export { SegmentLog, type SegmentLogOptions } from './segment-log.js';
export type { Relocations, RewriteDecision } from './segment-rewriter.js';
export type { LogPosition, RecordLocation, ScannedRecord, SegmentInfo, WarningReporter } from './types.js';
export { comparePositions } from './types.js';
export { SerialQueue } from './serial-queue.js';
export { PendingOperations, findSortedId, openStoreLog, type StoreLogOptions } from './store-support.js';
