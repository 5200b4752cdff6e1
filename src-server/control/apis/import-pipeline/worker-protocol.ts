import type { ImportProgress, ImportRequest, PrepareOutcome } from './import-types.js';

/** Messages between WorkerImportRunner and import-worker.ts. */
export interface WorkerRequest {
  id: number;
  request: ImportRequest;
}

export type WorkerReply =
  | { type: 'progress'; id: number; progress: ImportProgress }
  | { type: 'done'; id: number; outcome: PrepareOutcome }
  | { type: 'failed'; id: number; message: string };
