/**
 * The audit import's reader thread: reads the file, parses, normalizes, digests and serializes its entries
 * (`prepareImportBatch`) while the main thread writes the chunks before them, so that an import on two cores takes
 * the longer of the two, not their sum. Started by `readImportInWorker`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { NewAuditEntry } from '../../../core/audit/audit-entry.js';
import { prepareImportBatch } from '../../../core/audit/sql/audit-import-entry.js';
import { readImportFile, type ImportProblem } from './read-import-file.js';
import { READ_AHEAD, type AuditReadReply } from './audit-read-protocol.js';

const port = parentPort;
if (!port) throw new Error('audit-read-worker.ts runs as a worker thread only');
const { path } = workerData as { path: string };

let credit = READ_AHEAD;
let wake: (() => void) | undefined;
// The one message there is: the main thread took a stretch (`TAKEN`).
port.on('message', () => {
  credit++;
  wake?.();
  wake = undefined;
});

const reply = (message: AuditReadReply) => port.postMessage(message);

for await (const records of readImportFile(path)) {
  const inputs: NewAuditEntry[] = [];
  const problems: ImportProblem[] = [];
  for (const record of records) {
    if ('entry' in record) inputs.push(record.entry);
    else problems.push(record.problem);
  }
  const batch = prepareImportBatch(inputs);
  while (credit === 0) await new Promise<void>((resolve) => (wake = resolve));
  credit--;
  reply({ type: 'read', read: { batch, problems } });
  if (batch.invalid !== undefined) break;
}
reply({ type: 'end' });
port.close();
