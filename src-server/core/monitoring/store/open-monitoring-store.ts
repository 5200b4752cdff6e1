import { openStoreLog, type SegmentLog, type WarningReporter } from '../../storage/index.js';
import { FileMonitoringStore } from './file-monitoring-store.js';
import { MonitoringIndex } from './monitoring-index.js';
import { BlockReader } from './block-codec.js';
import { IndexFieldReader, RecordCodecError } from './record-codec.js';

export interface OpenMonitoringStoreOptions {
  /** Directory the store owns (the caller holds the data-dir lock); segments go under `log/`. */
  dir: string;
  /** Damage found on open (torn tail, corrupt or unreadable records). Default: console.warn. */
  onWarning?: WarningReporter;
  /**
   * A segment is sealed past this size. Retention deletes whole sealed segments, so smaller segments give
   * back disk space sooner. Default 16 MiB (~80,000 records).
   */
  segmentMaxBytes?: number;
}

const REPLAY_CHUNK = 8192;
/** A typical record takes ~220 bytes in the log; a low guess only costs one more resize. */
const ESTIMATED_RECORD_BYTES = 200;

/** Opens the store and rebuilds its index by reading the log once (~1 s per million records). */
export async function openMonitoringStore(options: OpenMonitoringStoreOptions): Promise<FileMonitoringStore> {
  const warn = options.onWarning ?? defaultWarningReporter;
  const logOptions = {
    dir: options.dir,
    segmentMaxBytes: options.segmentMaxBytes ?? 16 * 1024 * 1024,
    onWarning: warn,
  };
  return openStoreLog(logOptions, async (log) => {
    let logBytes = 0;
    for (const segment of log.segments()) logBytes += segment.size;
    const index = new MonitoringIndex(Math.max(1024, Math.ceil(logBytes / ESTIMATED_RECORD_BYTES)));
    await replay(log, index, warn);
    return new FileMonitoringStore(log, index);
  });
}

async function replay(log: SegmentLog, index: MonitoringIndex, warn: WarningReporter): Promise<void> {
  const chunk = new Uint32Array(REPLAY_CHUNK);
  let filled = 0;
  let skipped = 0;
  let firstProblem: Record<string, unknown> | undefined;
  const blockReader = new BlockReader();
  const fields = new IndexFieldReader();
  for await (const { location, payload } of log.scan()) {
    try {
      blockReader.open(payload);
      while (blockReader.next()) {
        fields.read(payload, blockReader.offset, blockReader.length);
        if (
          !Number.isSafeInteger(fields.id) ||
          fields.id <= index.highestId ||
          !Number.isFinite(fields.timeMs)
        ) {
          throw new RecordCodecError(`record id ${fields.id} is out of order or invalid`);
        }
        chunk[filled++] = index.addDecoded(fields, payload, location, blockReader.offset);
        if (filled === REPLAY_CHUNK) {
          index.order.insertBatch(chunk);
          filled = 0;
        }
      }
    } catch (error) {
      // A damaged block keeps the records read before the damage; the rest of it is skipped.
      if (!(error instanceof RecordCodecError)) throw error;
      skipped++;
      firstProblem ??= { ...location, error: error.message };
    }
  }
  index.order.insertBatch(chunk.subarray(0, filled));
  if (skipped > 0)
    warn('Skipped monitoring record blocks that cannot be read', { skipped, first: firstProblem });
}

function defaultWarningReporter(message: string, details: Record<string, unknown>): void {
  console.warn(`[monitoring-store] ${message}`, details);
}
