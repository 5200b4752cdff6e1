import { AuditFileParser, type AuditFileResult } from './audit-file-parser.js';

export interface ReadProgress {
  bytesRead: number;
  totalBytes: number;
  entries: number;
}

/** Read and parsed per slice: a large file never holds the page for longer than one slice takes. */
const SLICE_BYTES = 1 << 20;

/**
 * Reads a file the user picked or dropped, slice by slice, reporting progress after each; the page stays
 * responsive in between. Stops early when the first line shows the file is no export, or when aborted.
 */
export async function readAuditFile(
  file: Blob,
  onProgress: (progress: ReadProgress) => void,
  signal?: AbortSignal,
): Promise<AuditFileResult> {
  const parser = new AuditFileParser();
  const decoder = new TextDecoder('utf-8');
  for (let offset = 0; offset < file.size && parser.refused === undefined; offset += SLICE_BYTES) {
    signal?.throwIfAborted();
    const bytes = await file.slice(offset, offset + SLICE_BYTES).arrayBuffer();
    parser.push(decoder.decode(bytes, { stream: true }));
    onProgress({
      bytesRead: Math.min(file.size, offset + SLICE_BYTES),
      totalBytes: file.size,
      entries: parser.entryCount,
    });
    // Let the page paint the progress before the next slice.
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  signal?.throwIfAborted();
  parser.push(decoder.decode());
  return parser.end();
}
