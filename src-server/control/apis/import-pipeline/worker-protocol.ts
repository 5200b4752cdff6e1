import type { ImportProgress, ImportRequest, PrepareOutcome } from './import-types.js';
import type { PreparedLists } from './json-chunks.js';

/** Messages between WorkerImportRunner and import-worker.ts. */
export interface WorkerRequest {
  id: number;
  request: ImportRequest;
}

export type WorkerReply =
  | { type: 'progress'; id: number; progress: ImportProgress }
  /** `lists`: the prepared document's long lists, sent apart (json-chunks.ts). */
  | { type: 'done'; id: number; outcome: PrepareOutcome; lists?: PreparedLists }
  | { type: 'failed'; id: number; message: string };
