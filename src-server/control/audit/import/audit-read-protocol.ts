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

/** Stretches the worker may read ahead of the writer: more than one chunk of the writer's, so neither waits. */
export const READ_AHEAD = 8;
