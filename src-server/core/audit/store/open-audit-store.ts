import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { AuditStore } from '../audit-entry.js';
import { openStoreLog, type SegmentLog, type WarningReporter } from '../../storage/index.js';
import { AuditIndex } from './audit-index.js';
import { FileAuditStore, SNAPSHOT_FILE_NAME } from './file-audit-store.js';
import { replayLog } from './replay.js';
import { decodeSnapshot, snapshotMismatch, type DecodedSnapshot } from './snapshot-codec.js';

export interface OpenAuditStoreOptions {
  /** Directory the store owns (the caller holds the lock): segments under `log/`, plus the index snapshot. */
  dir: string;
  /** Damage found and repaired on open (torn tail, corrupt records, unusable snapshot). Default: console.warn. */
  onWarning?: WarningReporter;
  /** Current time in epoch ms (reporting only: retention takes `now` from its policy). */
  clock?: () => number;
  /** Alias of `clock`. */
  now?: () => number;
  /** Segment size before a new one is started. Default 64 MiB; tests use small values. */
  segmentMaxBytes?: number;
  /** Records applied between periodic snapshots. Default 100,000. */
  snapshotEveryRecords?: number;
}

/** Replaying more records than this on open is worth a fresh snapshot right away. */
const RESNAPSHOT_AFTER_REPLAYING = 10_000;

export async function openAuditStore(options: OpenAuditStoreOptions): Promise<AuditStore> {
  const warn = options.onWarning ?? defaultWarningReporter;
  const clock = options.clock ?? options.now ?? Date.now;
  const startedAt = clock();
  const logOptions = { dir: options.dir, segmentMaxBytes: options.segmentMaxBytes, onWarning: warn };
  return openStoreLog(logOptions, async (log) => {
    const snapshot = await loadUsableSnapshot(path.join(options.dir, SNAPSHOT_FILE_NAME), log, warn);
    const index = snapshot?.index ?? new AuditIndex();
    const replayed = await replayLog(log, index, index.covered, warn);
    if (!snapshot && replayed > 0) {
      warn('Rebuilt the audit index from the log', { records: replayed, elapsedMs: clock() - startedAt });
    }
    const store = new FileAuditStore(log, index, {
      dir: options.dir,
      warn,
      snapshotEveryRecords: options.snapshotEveryRecords ?? 100_000,
    });
    if (replayed > RESNAPSHOT_AFTER_REPLAYING || (!snapshot && replayed > 0)) await store.flush();
    return store;
  });
}

async function loadUsableSnapshot(
  file: string,
  log: SegmentLog,
  warn: WarningReporter,
): Promise<DecodedSnapshot | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    if (log.segments().some((segment) => segment.size > 0)) {
      warn('The audit index snapshot is missing; rebuilding the index from the log', { file });
    }
    return undefined;
  }
  let snapshot: DecodedSnapshot;
  try {
    snapshot = decodeSnapshot(bytes);
  } catch (error) {
    warn('The audit index snapshot is unreadable; rebuilding the index from the log', {
      file,
      reason: (error as Error).message,
    });
    return undefined;
  }
  const mismatch = snapshotMismatch(snapshot, log.segments());
  if (mismatch) {
    warn('The audit index snapshot does not match the log; rebuilding the index from the log', {
      file,
      reason: mismatch,
    });
    return undefined;
  }
  return snapshot;
}

function defaultWarningReporter(message: string, details: Record<string, unknown>): void {
  console.warn(`[audit-store] ${message}`, details);
}
