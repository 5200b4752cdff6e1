import { crc32, crc32Portable } from './crc32.js';
import { encodeFrame, FRAME_HEADER_BYTES } from './frame.js';

const FIRST_SLAB_BYTES = 64 * 1024;
const MAX_SLAB_BYTES = 4 * 1024 * 1024;

/** Consecutive frames in one buffer, with each frame's payload size (to find the boundaries). */
export interface FrameRun {
  bytes: Buffer;
  payloadSizes: number[];
}

/**
 * Builds many frames straight into large contiguous buffers: no buffer per record, no copy when written.
 * Used for bulk appends (imports, tombstones).
 */
export class FrameBatch {
  private readonly runs: FrameRun[] = [];
  private slab: Buffer = Buffer.alloc(0);
  private slabStart = 0;
  private position = 0;
  private sizes: number[] = [];
  /**
   * Slabs grow from small to large: a batch of a few records (a monitoring flush, several a second) must not
   * allocate megabytes, whose external memory would make the engine collect garbage far more often.
   */
  private nextSlabBytes = FIRST_SLAB_BYTES;
  recordCount = 0;
  byteLength = 0;

  constructor(private readonly maxRecordBytes: number) {}

  /** Adds a record whose payload is `prefix` followed by `text` in UTF-8. */
  addRecord(prefix: Uint8Array, text: string): void {
    const worstCase = FRAME_HEADER_BYTES + prefix.length + text.length * 3;
    this.ensureRoom(worstCase);
    const start = this.position;
    const payloadStart = start + FRAME_HEADER_BYTES;
    this.slab.set(prefix, payloadStart);
    const textBytes = this.slab.write(text, payloadStart + prefix.length, 'utf8');
    this.seal(start, prefix.length + textBytes);
  }

  addPayload(payload: Uint8Array): void {
    this.ensureRoom(FRAME_HEADER_BYTES + payload.length);
    this.slab.set(payload, this.position + FRAME_HEADER_BYTES);
    this.seal(this.position, payload.length);
  }

  /** The frames built so far; the batch must not be used afterwards. */
  finish(): FrameRun[] {
    this.closeRun();
    return this.runs;
  }

  private seal(start: number, payloadSize: number): void {
    if (payloadSize === 0) throw new Error('Cannot append an empty record');
    if (payloadSize > this.maxRecordBytes) {
      throw new Error(`Record of ${payloadSize} bytes exceeds the limit of ${this.maxRecordBytes}`);
    }
    const slab = this.slab;
    slab.writeUInt32LE(payloadSize, start);
    const payload = slab.subarray(start + FRAME_HEADER_BYTES, start + FRAME_HEADER_BYTES + payloadSize);
    // The 4 length bytes in JS, the payload natively: one native call per frame instead of two.
    slab.writeUInt32LE(crc32(payload, crc32Portable(slab.subarray(start, start + 4))), start + 4);
    this.position = start + FRAME_HEADER_BYTES + payloadSize;
    this.sizes.push(payloadSize);
    this.recordCount++;
    this.byteLength += FRAME_HEADER_BYTES + payloadSize;
  }

  private ensureRoom(bytes: number): void {
    if (this.position + bytes <= this.slab.length) return;
    this.closeRun();
    this.slab = Buffer.allocUnsafe(Math.max(this.nextSlabBytes, bytes));
    this.nextSlabBytes = Math.min(this.nextSlabBytes * 2, MAX_SLAB_BYTES);
    this.slabStart = 0;
    this.position = 0;
  }

  private closeRun(): void {
    if (this.sizes.length === 0) return;
    this.runs.push({ bytes: this.slab.subarray(this.slabStart, this.position), payloadSizes: this.sizes });
    this.sizes = [];
    this.slabStart = this.position;
  }
}

/** One frame as a run (single appends). */
export function singleFrameRun(payload: Uint8Array): FrameRun {
  return { bytes: encodeFrame(payload), payloadSizes: [payload.length] };
}
