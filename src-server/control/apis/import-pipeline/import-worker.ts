/**
 * The import worker thread's entry: reads, validates and extracts descriptions off the server's main thread,
 * so a 20 MB description never stalls the gateway. Started by WorkerImportRunner (import-runner.ts).
 */
import { parentPort } from 'node:worker_threads';
import { prepareDocument } from './prepare-document.js';
import type { ImportRequest } from './import-types.js';
import { storedRevisionForms } from './revision-details.js';
import { listBuffers, listsOf, withoutLists } from './json-chunks.js';
import type { WorkerReply, WorkerRequest } from './worker-protocol.js';
import { lowerThisThreadPriority } from './background-priority.js';

const port = parentPort;
if (!port) throw new Error('import-worker.ts runs as a worker thread only');
// Parsing yields the cores to the main thread, which serves the gateway (background-priority.ts).
lowerThisThreadPriority();

port.on('message', (message: WorkerRequest) => {
  void run(message.id, message.request);
});

async function run(id: number, request: ImportRequest): Promise<void> {
  const reply = (message: WorkerReply, transfer: ArrayBuffer[] = []) => port!.postMessage(message, transfer);
  try {
    const outcome = await prepareDocument(request, (progress) => reply({ type: 'progress', id, progress }));
    if (!outcome.ok) {
      reply({ type: 'done', id, outcome });
      return;
    }
    const { definition, operations, bundledFiles, content } = outcome.prepared;
    const stored = storedRevisionForms(definition, operations, content, bundledFiles);
    // The description itself stays here: the main thread writes its stored form, and 20 MB less on its side is
    // 20 MB less external memory driving its garbage collections (which pause the gateway).
    const prepared = { ...withoutLists(outcome.prepared), content: new Uint8Array(0), stored };
    const lists = listsOf(outcome.prepared);
    reply({ type: 'done', id, outcome: { ...outcome, prepared }, lists }, [
      ...ownBuffers(stored.document, stored.details),
      ...listBuffers(lists),
    ]);
  } catch (error) {
    reply({ type: 'failed', id, message: error instanceof Error ? error.message : String(error) });
  }
}

/** The buffers to move with the reply: those the arrays fill alone (zlib's output does; a pooled one would not). */
function ownBuffers(...arrays: Uint8Array[]): ArrayBuffer[] {
  return arrays
    .filter((array) => array.byteOffset === 0 && array.byteLength === array.buffer.byteLength)
    .map((array) => array.buffer as ArrayBuffer);
}
