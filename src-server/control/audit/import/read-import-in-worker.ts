import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../../core/threads/worker-thread.js';
import { TAKEN, type AuditReadReply, type PreparedRead } from './audit-read-protocol.js';

// A variable, so that bundlers leave the worker's URL alone (build-server.mjs and electron.vite.config.ts build it).
const WORKER_FILE = './audit-read-worker.js';

function spawnReader(path: string): Worker {
  const options = { workerData: { path } };
  if (import.meta.url.endsWith('.ts')) {
    // Running from TypeScript sources (tests, benchmarks): the worker loads them through tsx too.
    const entry = new URL('./audit-read-worker.ts', import.meta.url).href;
    const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
    return startWorker(bootstrap, { ...options, eval: true });
  }
  return startWorker(new URL(WORKER_FILE, import.meta.url), options);
}

/**
 * An import file's entries, prepared for writing by a worker thread (audit-read-worker.ts), in order; the worker
 * reads at most `READ_AHEAD` stretches ahead of what was taken. Ends the worker when the caller stops early.
 */
export async function* readImportInWorker(path: string): AsyncGenerator<PreparedRead> {
  const worker = spawnReader(path);
  const replies: AuditReadReply[] = [];
  const state: { failure?: Error; exited: boolean } = { exited: false };
  let wake: (() => void) | undefined;
  const wakeUp = () => {
    wake?.();
    wake = undefined;
  };
  worker.on('message', (reply: AuditReadReply) => {
    replies.push(reply);
    wakeUp();
  });
  worker.on('error', (error) => {
    state.failure ??= error;
    wakeUp();
  });
  worker.on('exit', () => {
    state.exited = true;
    wakeUp();
  });
  try {
    for (;;) {
      const reply = replies.shift();
      if (reply === undefined) {
        if (state.failure) throw state.failure;
        if (state.exited) throw new Error('The import file reader stopped before the end of the file.');
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      if (reply.type === 'end') return;
      worker.postMessage(TAKEN);
      yield reply.read;
    }
  } finally {
    await worker.terminate();
  }
}
