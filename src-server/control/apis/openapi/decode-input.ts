import { isUtf8 } from 'node:buffer';
import type { DefinitionIssue } from './types.js';

export const DEFAULT_MAX_BYTES = 25 * 1024 * 1024;

export type DecodedInput = { ok: true; text: string } | { ok: false; error: DefinitionIssue };

/**
 * Checks the size limit and turns the input into text. Buffers are UTF-8 unless they start with a
 * UTF-16 byte order mark; a leading byte order mark is dropped.
 */
export function decodeInput(input: unknown, maxBytes: number): DecodedInput {
  if (typeof input === 'string') {
    const size = Buffer.byteLength(input, 'utf8');
    if (size > maxBytes) return tooLarge(size, maxBytes);
    return { ok: true, text: stripByteOrderMark(input) };
  }
  if (!(input instanceof Uint8Array)) {
    return fail(`the document must be given as a Buffer or a string, not ${typeof input}`);
  }
  if (input.byteLength > maxBytes) return tooLarge(input.byteLength, maxBytes);
  const encoding = detectEncoding(input);
  if (encoding === 'utf-8') {
    // Checked and decoded natively: several times faster than a fatal TextDecoder on a 20 MB document.
    if (!isUtf8(input)) return fail('the document is not valid UTF-8 text (is it a binary file?)');
    return {
      ok: true,
      text: stripByteOrderMark(
        Buffer.from(input.buffer, input.byteOffset, input.byteLength).toString('utf8'),
      ),
    };
  }
  try {
    return { ok: true, text: stripByteOrderMark(new TextDecoder(encoding, { fatal: true }).decode(input)) };
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return fail('the document is not valid UTF-16 text (is it a binary file?)');
  }
}

function detectEncoding(bytes: Uint8Array): 'utf-8' | 'utf-16le' | 'utf-16be' {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return 'utf-8';
}

function stripByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function tooLarge(size: number, maxBytes: number): DecodedInput {
  return fail(
    `the document is ${formatMegabytes(size)} (${size} bytes), larger than the limit of ${formatMegabytes(maxBytes)} (${maxBytes} bytes)`,
  );
}

function fail(message: string): DecodedInput {
  return { ok: false, error: { pointer: '', message } };
}

function formatMegabytes(bytes: number): string {
  const megabytes = bytes / (1024 * 1024);
  if (megabytes < 0.1) return `${bytes} bytes`;
  return `${Number.isInteger(megabytes) ? megabytes : megabytes.toFixed(1)} MB`;
}
