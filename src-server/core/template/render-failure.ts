import type { RenderError } from './types.js';
import { ErrorCode } from '../contracts/error-codes.js';
import { GatehouseError } from '../errors/gatehouse-error.js';

/** Thrown while rendering (also from inside the Handlebars helper) and turned into a result at the entry point. */
export class RenderFailure extends GatehouseError {
  constructor(readonly error: RenderError) {
    super(ErrorCode.GH_ERR_TEMPLATE_RENDER, error.message);
  }
}
