import type pg from 'pg';

/**
 * pg, loaded when the first PostgreSQL connection is made: the embedded engine never needs it, and loading it was
 * ~50 ms of CPU on every cold start.
 */
export async function loadPg(): Promise<typeof pg> {
  return (await import('pg')).default;
}
