import type { ImportBatch } from '../../../core/audit/import-batch.js';
import type { ImportProblem } from './read-import-file.js';

/** What `gatehouse audit import` needs of one file, read and prepared in a worker thread. */
export interface PreparedRead {
  batch: ImportBatch;
  /** Lines or items of this stretch of the file that are not entries. */
  problems: ImportProblem[];
}

/** The worker's messages: a stretch of the file, or its end. */
export type AuditReadReply = { type: 'read'; read: PreparedRead } | { type: 'end' };

/** The main thread's one message: it took a stretch, so the worker may read one more. */
export const TAKEN = 'taken';

/**
 * Stretches (of up to 2,000 entries) the worker may read ahead of what the writer took: one chunk of the writer's
 * (10,000), ready when it ends a write. Each one more costs resident memory (8 of them: +50 MB at 200,000 entries).
 */
export const READ_AHEAD = 5;
