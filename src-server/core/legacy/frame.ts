import { crc32 } from 'node:zlib';

/** The frames of the segment logs written before the SQL storage: `[u32 payload length][u32 crc32 of length bytes + payload]`, little endian. */
export const FRAME_HEADER_BYTES = 8;

export function frameSize(payloadSize: number): number {
  return FRAME_HEADER_BYTES + payloadSize;
}

/**
 * The CRC covers the length bytes too, so a zero-filled region (what a crash can leave after a file was
 * extended) never reads as a run of valid empty frames.
 */
function frameChecksum(lengthBytes: Uint8Array, payload: Uint8Array): number {
  return crc32(payload, crc32(lengthBytes));
}

export type FrameCheck =
  | { kind: 'valid'; payloadSize: number }
  | { kind: 'short' }
  | { kind: 'bad-length'; payloadSize: number }
  | { kind: 'bad-checksum'; payloadSize: number };

/**
 * Checks the frame starting at `position` of `buffer`. `available` is how many bytes of the file exist from
 * `position` on (the buffer may hold fewer; the caller makes sure it holds the whole frame when it says so).
 */
export function checkFrame(
  buffer: Buffer,
  position: number,
  available: number,
  maxRecordBytes: number,
): FrameCheck {
  if (available < FRAME_HEADER_BYTES) return { kind: 'short' };
  const payloadSize = buffer.readUInt32LE(position);
  if (payloadSize === 0 || payloadSize > maxRecordBytes) return { kind: 'bad-length', payloadSize };
  if (available < FRAME_HEADER_BYTES + payloadSize) return { kind: 'short' };
  const stored = buffer.readUInt32LE(position + 4);
  const payload = buffer.subarray(position + FRAME_HEADER_BYTES, position + FRAME_HEADER_BYTES + payloadSize);
  const actual = frameChecksum(buffer.subarray(position, position + 4), payload);
  return actual === stored ? { kind: 'valid', payloadSize } : { kind: 'bad-checksum', payloadSize };
}
