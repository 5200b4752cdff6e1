import type { SourceError } from './source-error.js';

/** Thrown inside the binder and caught at its entry point, which turns it into a compile error. */
export class BindFailure extends Error {
  readonly detail: SourceError;

  constructor(at: { start: number; end: number }, message: string) {
    super(message);
    this.detail = { position: at.start, length: Math.max(1, at.end - at.start), message };
  }
}
