import { checkFrame, FRAME_HEADER_BYTES } from './frame.js';
import { readExactly } from './durable-fs.js';
import type { SegmentFile } from './segment-file.js';
import type { RecordLocation } from './types.js';

/** Records closer than this are read with one pread, the bytes in between thrown away. */
const MAX_GAP_BYTES = 32 * 1024;
const MAX_RANGE_BYTES = 4 * 1024 * 1024;

interface ReadRange {
  start: number;
  end: number;
  /** Indexes into the caller's location array. */
  members: number[];
}

/**
 * Reads the payloads at `locations` of one segment, merging neighbouring records into one pread (a page
 * of a time-ordered list is usually a handful of contiguous records). Each frame's checksum is verified.
 */
export async function readSegmentRecords(
  file: SegmentFile,
  locations: readonly RecordLocation[],
  indexes: readonly number[],
  maxRecordBytes: number,
  into: Buffer[],
): Promise<void> {
  const ranges = planRanges(locations, indexes);
  await Promise.all(
    ranges.map(async (range) => {
      const length = range.end - range.start;
      const buffer = Buffer.allocUnsafe(length);
      const read = await readExactly(file.handle, buffer, length, range.start);
      for (const member of range.members) {
        const location = locations[member]!;
        const relative = location.offset - range.start;
        const check = checkFrame(buffer, relative, read - relative, maxRecordBytes);
        if (check.kind !== 'valid' || check.payloadSize !== location.size) {
          throw new Error(
            `Record at segment ${location.segment} offset ${location.offset} is unreadable (${check.kind})`,
          );
        }
        into[member] = buffer.subarray(
          relative + FRAME_HEADER_BYTES,
          relative + FRAME_HEADER_BYTES + location.size,
        );
      }
    }),
  );
}

function planRanges(locations: readonly RecordLocation[], indexes: readonly number[]): ReadRange[] {
  const sorted = [...indexes].sort((a, b) => locations[a]!.offset - locations[b]!.offset);
  const ranges: ReadRange[] = [];
  let current: ReadRange | undefined;
  for (const index of sorted) {
    const { offset, size } = locations[index]!;
    const end = offset + FRAME_HEADER_BYTES + size;
    if (current && offset - current.end <= MAX_GAP_BYTES && end - current.start <= MAX_RANGE_BYTES) {
      current.end = Math.max(current.end, end);
      current.members.push(index);
    } else {
      current = { start: offset, end, members: [index] };
      ranges.push(current);
    }
  }
  return ranges;
}
