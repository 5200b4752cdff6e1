/**
 * How far back the state of a data dir can be rebuilt (seed §8: point-in-time restore up to 35 days): removed
 * audit entries and monitoring records, replaced configuration revisions and documents are kept this long.
 */
export const RESTORE_WINDOW_MS = 35 * 86_400_000;
