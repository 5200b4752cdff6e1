import { ErrorCode } from '../core/contracts/error-codes.js';
import { GatehouseError } from '../core/errors/gatehouse-error.js';

/** A mistake in how a command was called: printed without a stack trace, exit code 2. */
export class UsageError extends GatehouseError {
  override name = 'UsageError';
  constructor(message: string) {
    super(ErrorCode.GH_ERR_USAGE, message);
  }
}

/**
 * A failure the user can act on (data dir locked, file unreadable): printed without a stack, exit code 1. It
 * keeps the code of the error it reports, when there is one.
 */
export class CommandError extends GatehouseError {
  override name = 'CommandError';
  /** The process's exit code: 1 unless a command documents another (`audit verify`: 3 when tampering is found). */
  exitCode = 1;
  constructor(message: string, cause?: GatehouseError) {
    super(cause?.code ?? ErrorCode.GH_ERR_COMMAND_FAILED, message, cause ? { cause } : undefined);
  }
}
