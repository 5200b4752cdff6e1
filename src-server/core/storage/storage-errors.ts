import { ErrorCode, type ErrorCodeWithStatus } from '../contracts/error-codes.js';
import { GatehouseError } from '../errors/gatehouse-error.js';

/**
 * Failures of the database that a client can't fix and a retry may: the server answers 503 with the public
 * message (never the driver's text) and logs the cause.
 */
export class StorageUnavailableError extends GatehouseError {
  override name = 'StorageUnavailableError';
  declare readonly code: ErrorCodeWithStatus<503>;
  constructor(
    /** What the client is told. */
    readonly publicDetail: string,
    options?: { cause?: unknown },
    code: ErrorCodeWithStatus<503> = ErrorCode.GH_ERR_STORAGE_UNAVAILABLE,
  ) {
    super(code, publicDetail, options);
  }
}

/** The database file is damaged: the message names it and the way out. */
export class DatabaseDamagedError extends StorageUnavailableError {
  override name = 'DatabaseDamagedError';
  constructor(publicDetail: string, options?: { cause?: unknown }) {
    super(publicDetail, options, ErrorCode.GH_ERR_DATABASE_DAMAGED);
  }
}

/** Opening failed for a reason the operator must fix (unreachable server, unreadable file, newer schema). */
export class DatabaseOpenError extends GatehouseError {
  override name = 'DatabaseOpenError';
  constructor(message: string, options?: ErrorOptions) {
    super(ErrorCode.GH_ERR_DATABASE_OPEN_FAILED, message, options);
  }
}

const PG_CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
]);

/** True for errors that mean the PostgreSQL server can't be reached or dropped the connection. */
export function isPostgresConnectionError(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  if (code && PG_CONNECTION_CODES.has(code)) return true;
  // Class 08 (connection exception), 57P01–57P03 (shutdown, crash, cannot connect now), 53300 (too many).
  if (code && (/^08/.test(code) || /^57P0[123]$/.test(code) || code === '53300')) return true;
  return /Connection terminated|connection timeout|Client has encountered a connection error/i.test(
    message ?? '',
  );
}

/** SQLite's answers for a file that is not (or no longer) a well-formed database. */
export function isSqliteDamage(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  return (
    code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB' || code?.startsWith('SQLITE_CORRUPT_') === true
  );
}

/** Disk full, I/O errors, a read-only file: the write did not happen, a later one may. */
export function isSqliteResourceError(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code ?? '';
  return /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN|BUSY|LOCKED)/.test(code);
}
