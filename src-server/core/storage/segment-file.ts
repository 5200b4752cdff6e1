import type { FileHandle } from 'node:fs/promises';
import * as path from 'node:path';

const SEGMENT_NAME = /^(\d{8})\.g(\d+)\.seg$/;

/** `00000007.g2.seg`: segment 7, rewritten twice by compaction. The sequence orders segments in the log. */
export function segmentFileName(seq: number, generation: number): string {
  return `${String(seq).padStart(8, '0')}.g${generation}.seg`;
}

export function parseSegmentFileName(name: string): { seq: number; generation: number } | undefined {
  const match = SEGMENT_NAME.exec(name);
  if (!match) return undefined;
  return { seq: Number(match[1]), generation: Number(match[2]) };
}

export function isTemporaryFileName(name: string): boolean {
  return name.endsWith('.tmp');
}

/**
 * One open segment file. Readers `acquire()` it for the duration of a read so that compaction can swap in
 * a rewritten file without closing a descriptor a read is still using.
 */
export class SegmentFile {
  private references = 1;
  private closed: Promise<void> | undefined;

  constructor(
    readonly dir: string,
    readonly seq: number,
    readonly generation: number,
    readonly handle: FileHandle,
    /** Committed bytes: everything before this offset is complete, valid frames. */
    public size: number,
  ) {}

  get path(): string {
    return path.join(this.dir, segmentFileName(this.seq, this.generation));
  }

  acquire(): void {
    if (this.references === 0) throw new Error(`Segment ${this.seq} is already closed`);
    this.references++;
  }

  release(): Promise<void> {
    this.references--;
    if (this.references > 0) return Promise.resolve();
    this.closed ??= this.handle.close();
    return this.closed;
  }

  /** Drops the log's own reference; the descriptor closes once the last reader releases it. */
  retire(): Promise<void> {
    return this.release();
  }
}
