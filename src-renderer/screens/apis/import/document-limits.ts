import { API_DOCUMENT_LIMIT_BYTES } from '../../../api/types.js';
import { formatSize } from '../format-numbers.js';

/** Refused before sending: the server would answer 413 after the whole upload. */
export function tooLargeMessage(file: File): string | undefined {
  return file.size > API_DOCUMENT_LIMIT_BYTES
    ? `${file.name} is ${formatSize(file.size)}; documents of up to 25 MiB (${formatSize(API_DOCUMENT_LIMIT_BYTES)}) can be imported.`
    : undefined;
}
