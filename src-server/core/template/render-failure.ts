import type { RenderError } from './types.js';

/** Thrown while rendering (also from inside the Handlebars helper) and turned into a result at the entry point. */
export class RenderFailure extends Error {
  constructor(readonly error: RenderError) {
    super(error.message);
  }
}
