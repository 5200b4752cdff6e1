import * as zlib from 'node:zlib';

type Crc32Function = (data: Uint8Array, initial?: number) => number;

const CRC32_TABLE = buildTable();

function buildTable(): Uint32Array {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
}

/** Table-based CRC-32 (IEEE 802.3), the same function as zlib's. Used when `zlib.crc32` is missing. */
export function crc32Portable(data: Uint8Array, initial = 0): number {
  let crc = (initial ^ 0xffffffff) >>> 0;
  for (let i = 0; i < data.length; i++) {
    crc = CRC32_TABLE[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}

// `zlib.crc32` exists from Node 20.15 / 22.2; it is native and an order of magnitude faster.
const nativeCrc32 = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

/** CRC-32 of `data`, continuing from `initial` (the CRC of the bytes before it). */
export const crc32: Crc32Function =
  typeof nativeCrc32 === 'function' ? (data, initial = 0) => nativeCrc32(data, initial) : crc32Portable;

export const crc32Implementation: 'native' | 'portable' =
  typeof nativeCrc32 === 'function' ? 'native' : 'portable';
