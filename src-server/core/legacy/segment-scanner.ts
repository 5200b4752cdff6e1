import type { FileHandle } from 'node:fs/promises';
import { checkFrame, FRAME_HEADER_BYTES, type FrameCheck } from './frame.js';
import { readExactly } from '../storage/durable-fs.js';
/** One record found by the scanner: where it is and its payload. */
export interface ScannedRecord {
  location: { segment: number; offset: number; size: number };
  payload: Buffer;
}

const DEFAULT_CHUNK_BYTES = 4 * 1024 * 1024;

export interface Corruption {
  segment: number;
  /** Where the first bad frame starts. */
  offset: number;
  reason: Exclude<FrameCheck['kind'], 'valid'>;
  /** The next valid frame after the damage, or null when nothing valid follows (a torn tail). */
  resumedAt: number | null;
}

export interface ScanOptions {
  segment: number;
  handle: FileHandle;
  /** Offset to start at; must be a frame boundary. */
  from: number;
  /** Bytes of the file to consider. */
  end: number;
  maxRecordBytes: number;
  onCorruption: (corruption: Corruption) => void;
  chunkBytes?: number;
}

/**
 * Reads the frames of one segment in order with large sequential reads. Damaged frames are reported and
 * skipped: the scanner looks for the next offset where a whole, checksum-valid frame starts.
 */
export class SegmentScanner {
  private buffer: Buffer;
  private bufferStart = 0;
  private bufferLength = 0;
  private position: number;
  /** After the scan: the end of the last valid frame (where a torn tail starts, if any). */
  validEnd: number;

  constructor(private readonly options: ScanOptions) {
    this.buffer = Buffer.allocUnsafe(options.chunkBytes ?? DEFAULT_CHUNK_BYTES);
    this.position = options.from;
    this.validEnd = options.from;
  }

  async *records(): AsyncGenerator<ScannedRecord> {
    const { end, segment } = this.options;
    while (this.position < end) {
      const check = await this.frameAt(this.position);
      if (check.kind === 'valid') {
        const start = this.position - this.bufferStart + FRAME_HEADER_BYTES;
        // The payload is a view into the scan buffer, valid until the next record is requested.
        const payload = this.buffer.subarray(start, start + check.payloadSize);
        const location = { segment, offset: this.position, size: check.payloadSize };
        this.position += FRAME_HEADER_BYTES + check.payloadSize;
        this.validEnd = this.position;
        yield { location, payload };
        continue;
      }
      const resumedAt = await this.findNextValidFrame(this.position + 1);
      this.options.onCorruption({ segment, offset: this.position, reason: check.kind, resumedAt });
      if (resumedAt === null) return;
      this.position = resumedAt;
    }
  }

  private async findNextValidFrame(from: number): Promise<number | null> {
    for (let candidate = from; candidate + FRAME_HEADER_BYTES <= this.options.end; candidate++) {
      if ((await this.frameAt(candidate)).kind === 'valid') return candidate;
    }
    return null;
  }

  private async frameAt(position: number): Promise<FrameCheck> {
    const available = this.options.end - position;
    if (available < FRAME_HEADER_BYTES) return { kind: 'short' };
    await this.ensureResident(position, FRAME_HEADER_BYTES);
    const payloadSize = this.buffer.readUInt32LE(position - this.bufferStart);
    if (payloadSize === 0 || payloadSize > this.options.maxRecordBytes)
      return { kind: 'bad-length', payloadSize };
    if (available < FRAME_HEADER_BYTES + payloadSize) return { kind: 'short' };
    await this.ensureResident(position, FRAME_HEADER_BYTES + payloadSize);
    return checkFrame(this.buffer, position - this.bufferStart, available, this.options.maxRecordBytes);
  }

  private async ensureResident(position: number, length: number): Promise<void> {
    if (position >= this.bufferStart && position + length <= this.bufferStart + this.bufferLength) return;
    const wanted = Math.min(
      Math.max(length, this.options.chunkBytes ?? DEFAULT_CHUNK_BYTES),
      this.options.end - position,
    );
    if (this.buffer.length < wanted) this.buffer = Buffer.allocUnsafe(wanted);
    const read = await readExactly(this.options.handle, this.buffer, wanted, position);
    if (read < length)
      throw new Error(`Segment ${this.options.segment} is shorter than expected at ${position}`);
    this.bufferStart = position;
    this.bufferLength = read;
  }
}
