import type { SourceError } from './source-error.js';
import { ErrorCode } from '../contracts/error-codes.js';
import { GatehouseError } from '../errors/gatehouse-error.js';

/** Thrown inside the binder and caught at its entry point, which turns it into a compile error. */
export class BindFailure extends GatehouseError {
  readonly detail: SourceError;

  constructor(at: { start: number; end: number }, message: string) {
    super(ErrorCode.GH_ERR_TEMPLATE_BIND, message);
    this.detail = { position: at.start, length: Math.max(1, at.end - at.start), message };
  }
}
