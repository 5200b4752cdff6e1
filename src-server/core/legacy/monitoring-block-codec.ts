import { RecordCodecError } from './monitoring-record-codec.js';

/**
 * (Read-only now, for the conversion of data dirs written before the SQL storage.) One log record holds a block of monitoring records: `[kind u8 = 2][version u8 = 1][count u16]`, then per
 * record `[byte length u32][record]`. Blocks keep the log's per-record costs (frame, checksum, a scan step)
 * per few dozen records, which makes rebuilding the index on open several times faster; reading one record
 * reads its block (~16 KiB).
 */
const BLOCK_KIND = 2;
const BLOCK_VERSION = 1;
const BLOCK_HEADER_BYTES = 4;
const LENGTH_BYTES = 4;

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
