import type { ErrorCode } from '../contracts/error-codes.js';

/**
 * The base of every error Gatehouse raises on purpose. `code` is stable (docs/ERROR-CODES.md): callers match on
 * it, never on the message, which may change.
 */
export class GatehouseError extends Error {
  override name = 'GatehouseError';
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}
