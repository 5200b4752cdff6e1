import { Transform, type TransformCallback } from 'node:stream';
import { BodyTooLargeError } from './upstream-failure.js';

/** Where the meter reports the body's progress: its timeout ends once the body is complete. */
export interface BodyProgress {
  bodyProgress: number;
  bodyMs: number;
}

/** Passes a request body through, counting it, and fails once it grows past the limit (streamed, not buffered). */
export class BodyMeter extends Transform {
  bytes = 0;

  constructor(
    private readonly limit: number,
    private readonly progress: BodyProgress,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    this.progress.bodyProgress++;
    if (this.bytes > this.limit) callback(new BodyTooLargeError(this.limit));
    else callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    this.progress.bodyMs = 0;
    callback();
  }
}
