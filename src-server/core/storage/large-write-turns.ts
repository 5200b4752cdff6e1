import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Above this size, a value written in a transaction gets an event-loop turn of its own. On SQLite every statement
 * runs synchronously on the main thread, and a transaction's statements follow each other in microtasks: an
 * import of Microsoft Graph's description (a 1.7 MB document, a 4 MB configuration row, then the commit that writes
 * them to the WAL) held the event loop, and with it the gateway, for 40 to 140 ms in one piece. Yielding between
 * those statements lets the gateway's requests through; other writers wait for the connection as before (Kysely
 * hands SQLite's one connection to one transaction at a time), so the transaction stays whole.
 */
export const LARGE_WRITE_BYTES = 256 * 1024;

/** Yields one turn of the event loop when `size` (bytes or characters) is large; costs nothing otherwise. */
export async function turnForLargeWrite(size: number): Promise<void> {
  if (size >= LARGE_WRITE_BYTES) await nextTurn();
}
