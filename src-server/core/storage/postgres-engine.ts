import type pg from 'pg';
import { loadPg } from './load-pg.js';
import { PostgresDialect, type Dialect } from 'kysely';
import type { Logger } from '../logging/logger.js';
import { DatabaseOpenError, isPostgresConnectionError, StorageUnavailableError } from './storage-errors.js';

const INT8_OID = 20;
const NUMERIC_OID = 1700;

export interface PostgresEngine {
  dialect: Dialect;
  pool: pg.Pool;
  /** The server and database, without credentials (for messages and logs). */
  location: string;
  translate: (error: unknown) => unknown;
}

/** `postgres://user:secret@host:5432/db?…` → `postgres://user@host:5432/db`. */
export function describeConnectionString(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    return `${url.protocol}//${url.username ? `${decodeURIComponent(url.username)}@` : ''}${url.host}${url.pathname}`;
  } catch {
    return 'postgres://(unparseable connection string)';
  }
}

/** int8 and numeric as numbers (pg's default is text, to keep precision beyond 2^53 that Gatehouse never needs). */
function numericTypes(driver: typeof pg): pg.TypeOverrides {
  const types = new driver.TypeOverrides();
  const toNumber = (value: string) => Number(value);
  types.setTypeParser(INT8_OID, 'text', toNumber);
  types.setTypeParser(NUMERIC_OID, 'text', toNumber);
  return types;
}

/**
 * A pool of connections to the team's PostgreSQL server. 64-bit integers (ids, times, counts) come back as
 * numbers: every one Gatehouse stores is below 2^53. The pool reconnects by itself; while the server is away,
 * queries fail with `StorageUnavailableError` (503).
 */
export async function openPostgresEngine(connectionString: string, logger: Logger): Promise<PostgresEngine> {
  const location = describeConnectionString(connectionString);
  const driver = await loadPg();
  const pool = new driver.Pool({
    connectionString,
    max: 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    types: numericTypes(driver),
    // No JIT compilation: the planner's cost of a statement with many subplans (a search's count and page at once)
    // passes jit_above_cost, and compiling it took seconds where running it takes a millisecond. `options` in the
    // connection string, when given, replaces this.
    options: '-c jit=off',
  });
  // An idle connection the server closed: the pool drops it and opens another when one is needed.
  pool.on('error', (error) =>
    logger.warn({ err: error, database: location }, 'a PostgreSQL connection was lost'),
  );
  // A connection lost while checked out (a query in flight when the server restarts) emits 'error' too, where
  // the pool does not listen: unhandled, that would end the process. The query itself fails (503).
  pool.on('connect', (client) => {
    client.on('error', (error) =>
      logger.debug({ err: error, database: location }, 'a PostgreSQL connection in use was lost'),
    );
  });
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DatabaseOpenError(
      `PostgreSQL at ${location} (ConnectionStrings:Gatehouse) cannot be reached: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const translate = (error: unknown): unknown => {
    if (error instanceof StorageUnavailableError) return error;
    if (isPostgresConnectionError(error)) {
      return new StorageUnavailableError('The database server is not reachable; try again shortly.', {
        cause: error,
      });
    }
    return error;
  };
  return { dialect: new PostgresDialect({ pool }), pool, location, translate };
}
