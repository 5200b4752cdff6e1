import type { Worker } from 'node:worker_threads';
import { startWorker } from '../threads/worker-thread.js';
import { applyChanges, copyDatabase, extractChanges, type HighestIds } from './sqlite-copy.js';

/** The SQLite work of a backup or restore, which reads or writes whole files. */
export type BackupJob =
  | { op: 'copy'; source: string; destination: string }
  | { op: 'extract'; source: string; destination: string; since: number; after: HighestIds }
  | { op: 'apply'; target: string; differential: string };

export type JobReply = { ok: true } | { ok: false; message: string };

export type JobRunner = (job: BackupJob) => Promise<void>;

export async function runJob(job: BackupJob): Promise<void> {
  switch (job.op) {
    case 'copy':
      await copyDatabase(job.source, job.destination);
      return;
    case 'extract':
      extractChanges(job.source, job.destination, job.since, job.after);
      return;
    case 'apply':
      applyChanges(job.target, job.differential);
  }
}

/** In this thread: the CLI, which has nothing else to serve meanwhile. */
export const runHere: JobRunner = runJob;

// A variable, so that bundlers leave the worker's URL alone (electron.vite.config.ts builds it as its own entry).
const WORKER_FILE = './backup-worker.js';

/**
 * In a worker thread of its own: the server, whose main thread answers requests and forwards traffic while a
 * copy of the whole database is written.
 */
export const runInWorker: JobRunner = (job) =>
  new Promise<void>((resolve, reject) => {
    const worker = spawnBackupWorker();
    let settled = false;
    worker.once('message', (reply: JobReply) => {
      settled = true;
      if (reply.ok) resolve();
      else reject(new Error(reply.message));
      void worker.terminate();
    });
    worker.once('error', (error) => {
      settled = true;
      reject(error);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`the backup worker stopped (exit code ${code})`));
    });
    worker.postMessage(job);
  });

function spawnBackupWorker(): Worker {
  if (import.meta.url.endsWith('.ts')) {
    // Running from TypeScript sources (tests): the worker loads them through tsx too.
    const entry = new URL('./backup-worker.ts', import.meta.url).href;
    const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
    return startWorker(bootstrap, { eval: true });
  }
  return startWorker(new URL(WORKER_FILE, import.meta.url));
}
