/**
 * The file-based audit store.
 *
 * On disk (`dir` is owned by one process; the caller holds the lock):
 * - `log/NNNNNNNN.gG.seg`: the segment log (see `src-server/core/storage`). Records are entries (binary content
 *   hash + JSON) and tombstones (ids removed by retention or by an operator).
 * - `index.snapshot`: the in-memory index (typed-array columns, list order, interned names) with the log
 *   position it covers and a CRC. Written on flush/close, every 100,000 records, and after removals.
 *
 * Open loads the snapshot and replays the log after it; a missing, corrupt or outdated snapshot is reported
 * and the index rebuilt from the log. Appends are durable when they resolve (group commit).
 */
export { openAuditStore, type OpenAuditStoreOptions } from './open-audit-store.js';
export { AuditStoreClosedError } from './file-audit-store.js';
export { InvalidAuditEntryError } from '../normalize-entry.js';
