import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../../core/threads/worker-thread.js';
import { withLists } from './json-chunks.js';
import type { ImportProgress, ImportRequest, PrepareOutcome } from './import-types.js';
import type { WorkerReply, WorkerRequest } from './worker-protocol.js';

/** Runs the read-validate-extract step of an import; cancel with the signal. */
export interface ImportRunner {
  run: (
    request: ImportRequest,
    onProgress?: (progress: ImportProgress) => void,
    signal?: AbortSignal,
  ) => Promise<PrepareOutcome>;
  close: () => Promise<void>;
}

/**
 * In the calling thread: the CLI, where nothing else waits on the thread. The pipeline (YAML parser, $ref
 * bundler, OpenAPI readers) is imported on the first import, so a server that runs its imports in the worker
 * never loads it in its main thread.
 */
export class InlineImportRunner implements ImportRunner {
  async run(
    request: ImportRequest,
    onProgress: (progress: ImportProgress) => void = () => undefined,
    signal?: AbortSignal,
  ): Promise<PrepareOutcome> {
    const { prepareDocument } = await import('./prepare-document.js');
    return prepareDocument(request, onProgress, signal);
  }

  async close(): Promise<void> {}
}

// A variable, so that bundlers leave the worker's URL alone (electron.vite.config.ts builds it as its own entry).
const WORKER_FILE = './import-worker.js';
/** Room for the largest accepted description once parsed (a 25 MiB document takes a few hundred MB). */
const WORKER_HEAP_MB = 2048;

interface Job {
  id: number;
  request: ImportRequest;
  onProgress: (progress: ImportProgress) => void;
  resolve: (outcome: PrepareOutcome) => void;
  reject: (error: unknown) => void;
}

/**
 * In one worker thread, kept between imports (its modules load once) and replaced when an import is
 * cancelled (terminating it is the only way to stop a synchronous parse) or when it fails. Imports run one
 * at a time; the others wait their turn.
 */
export class WorkerImportRunner implements ImportRunner {
  private worker: Worker | undefined;
  private current: Job | undefined;
  private readonly queue: Job[] = [];
  private nextId = 1;

  run(
    request: ImportRequest,
    onProgress: (progress: ImportProgress) => void = () => undefined,
    signal?: AbortSignal,
  ): Promise<PrepareOutcome> {
    return new Promise<PrepareOutcome>((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortError(signal));
        return;
      }
      const job: Job = { id: this.nextId++, request, onProgress, resolve, reject };
      signal?.addEventListener('abort', () => this.cancel(job, abortError(signal)), { once: true });
      this.queue.push(job);
      this.startNext();
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    for (const job of this.queue.splice(0)) job.reject(new Error('the import runner was closed'));
    this.current?.reject(new Error('the import runner was closed'));
    this.current = undefined;
    if (worker) await worker.terminate();
  }

  private cancel(job: Job, reason: unknown): void {
    const queued = this.queue.indexOf(job);
    if (queued !== -1) {
      this.queue.splice(queued, 1);
      job.reject(reason);
      return;
    }
    if (this.current !== job) return;
    this.current = undefined;
    job.reject(reason);
    this.replaceWorker();
    this.startNext();
  }

  private startNext(): void {
    if (this.current || this.queue.length === 0) return;
    const job = this.queue.shift()!;
    this.current = job;
    const worker = this.ensureWorker();
    const { request } = job;
    const content = request.input.kind === 'bytes' ? arraysOf(request.input.content).map(ownedBytes) : [];
    const input = request.input.kind === 'bytes' ? { ...request.input, content } : request.input;
    const message: WorkerRequest = { id: job.id, request: { ...request, input } };
    worker.postMessage(
      message,
      content.map((bytes) => bytes.buffer as ArrayBuffer),
    );
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = spawnImportWorker();
    worker.unref();
    worker.on('message', (reply: WorkerReply) => this.onReply(reply));
    worker.on('error', (error) => this.onWorkerFailure(worker, error));
    worker.on('exit', (code) => {
      if (code !== 0)
        this.onWorkerFailure(worker, new Error(`the import worker stopped (exit code ${code})`));
    });
    this.worker = worker;
    return worker;
  }

  private onReply(reply: WorkerReply): void {
    const job = this.current;
    if (!job || job.id !== reply.id) return;
    if (reply.type === 'progress') {
      job.onProgress(reply.progress);
      return;
    }
    this.current = undefined;
    if (reply.type === 'failed') job.reject(new Error(`the import failed: ${reply.message}`));
    else if (reply.outcome.ok && reply.lists) {
      const { outcome } = reply;
      withLists(outcome.prepared, reply.lists).then(
        (prepared) => job.resolve({ ...outcome, prepared }),
        job.reject,
      );
    } else job.resolve(reply.outcome);
    this.startNext();
  }

  private onWorkerFailure(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    const job = this.current;
    this.current = undefined;
    const message =
      (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? 'the description needs more memory than an import may use'
        : error.message;
    job?.reject(new Error(message));
    this.startNext();
  }

  private replaceWorker(): void {
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
  }
}

function spawnImportWorker(): Worker {
  const options = { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } };
  if (import.meta.url.endsWith('.ts')) {
    // Running from TypeScript sources (tests, benchmarks): the worker loads them through tsx too.
    const entry = new URL('./import-worker.ts', import.meta.url).href;
    const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
    return startWorker(bootstrap, { ...options, eval: true });
  }
  return startWorker(new URL(WORKER_FILE, import.meta.url), options);
}

function arraysOf(content: Uint8Array | readonly Uint8Array[]): readonly Uint8Array[] {
  return content instanceof Uint8Array ? [content] : content;
}

/**
 * The bytes to hand to the worker: moved, not copied, when they fill their own buffer (a large upload does);
 * copied when they share one (a small Buffer from Node's pool), since moving would take the others' bytes too. A
 * request body's chunks each fill their own.
 */
function ownedBytes(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 &&
    bytes.byteLength === bytes.buffer.byteLength &&
    bytes.buffer instanceof ArrayBuffer
    ? bytes
    : new Uint8Array(bytes);
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The import was cancelled.', 'AbortError');
}
