import type { NewMonitoringRecord } from '../monitoring-record.js';
import { encodeRecord, RecordCodecError, worstCaseRecordBytes } from './record-codec.js';

/**
 * One log record holds a block of monitoring records: `[kind u8 = 2][version u8 = 1][count u16]`, then per
 * record `[byte length u32][record]`. Blocks keep the log's per-record costs (frame, checksum, a scan step)
 * per few dozen records, which makes rebuilding the index on open several times faster; reading one record
 * reads its block (~16 KiB).
 */
const BLOCK_KIND = 2;
const BLOCK_VERSION = 1;
const BLOCK_HEADER_BYTES = 4;
const LENGTH_BYTES = 4;
export const MAX_RECORDS_PER_BLOCK = 64;
const TARGET_BLOCK_BYTES = 16 * 1024;

/** Builds one block at a time in a reusable buffer. */
export class BlockBuilder {
  private buffer = Buffer.allocUnsafe(64 * 1024);
  private used = BLOCK_HEADER_BYTES;
  count = 0;

  /** Adds a record; returns where its bytes start in the block (what the index keeps). */
  add(id: number, timeMs: number, record: NewMonitoringRecord): number {
    const needed = this.used + LENGTH_BYTES + worstCaseRecordBytes(record);
    if (needed > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, this.buffer.length * 2));
      this.buffer.copy(grown, 0, 0, this.used);
      this.buffer = grown;
    }
    const offset = this.used + LENGTH_BYTES;
    const length = encodeRecord(this.buffer, offset, id, timeMs, record);
    this.buffer.writeUInt32LE(length, this.used);
    this.used = offset + length;
    this.count++;
    return offset;
  }

  get full(): boolean {
    return this.count >= MAX_RECORDS_PER_BLOCK || this.used >= TARGET_BLOCK_BYTES;
  }

  /** The finished block, valid until the next `add`; the builder starts a new block. */
  take(): Buffer {
    this.buffer[0] = BLOCK_KIND;
    this.buffer[1] = BLOCK_VERSION;
    this.buffer.writeUInt16LE(this.count, 2);
    const block = this.buffer.subarray(0, this.used);
    this.used = BLOCK_HEADER_BYTES;
    this.count = 0;
    return block;
  }
}

/** Walks the records of a block: after `next()` returns true, `offset` and `length` name the record. */
export class BlockReader {
  offset = 0;
  length = 0;
  private block: Buffer = Buffer.alloc(0);
  private remaining = 0;
  private position = 0;

  open(block: Buffer): void {
    if (block.length < BLOCK_HEADER_BYTES || block[0] !== BLOCK_KIND) {
      throw new RecordCodecError('Not a monitoring record block');
    }
    if (block[1] !== BLOCK_VERSION) {
      throw new RecordCodecError(`Unknown monitoring block version ${String(block[1])}`);
    }
    this.block = block;
    this.remaining = block.readUInt16LE(2);
    this.position = BLOCK_HEADER_BYTES;
  }

  next(): boolean {
    if (this.remaining === 0) return false;
    if (this.position + LENGTH_BYTES > this.block.length) {
      throw new RecordCodecError('Monitoring record block is truncated');
    }
    this.length = this.block.readUInt32LE(this.position);
    this.offset = this.position + LENGTH_BYTES;
    this.position = this.offset + this.length;
    if (this.position > this.block.length) throw new RecordCodecError('Monitoring record block is truncated');
    this.remaining--;
    return true;
  }
}

/** Byte length of the record starting at `offset` of a block. */
export function recordLengthAt(block: Buffer, offset: number): number {
  if (offset < BLOCK_HEADER_BYTES + LENGTH_BYTES || offset > block.length) {
    throw new RecordCodecError('Monitoring record offset is outside its block');
  }
  return block.readUInt32LE(offset - LENGTH_BYTES);
}
