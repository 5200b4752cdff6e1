import { Transform, type TransformCallback } from 'node:stream';
import { BodyTooLargeError } from './upstream-failure.js';

/** Passes a request body through, counting it, and fails once it grows past the limit (streamed, not buffered). */
export class BodyMeter extends Transform {
  bytes = 0;

  constructor(private readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.limit) callback(new BodyTooLargeError(this.limit));
    else callback(null, chunk);
  }
}
