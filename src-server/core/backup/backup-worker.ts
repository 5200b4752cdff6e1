/**
 * The backup worker thread's entry: copies and compares whole database files off the server's main thread.
 * Started by `runInWorker` (backup-jobs.ts), one job per worker.
 */
import { parentPort } from 'node:worker_threads';
import { runJob, type BackupJob, type JobReply } from './backup-jobs.js';

const port = parentPort;
if (!port) throw new Error('backup-worker.ts runs as a worker thread only');

port.once('message', (job: BackupJob) => {
  const reply = (message: JobReply) => port.postMessage(message);
  runJob(job).then(
    () => reply({ ok: true }),
    (error: unknown) => reply({ ok: false, message: error instanceof Error ? error.message : String(error) }),
  );
});
