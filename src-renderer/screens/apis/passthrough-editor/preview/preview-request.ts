import type {
  PassthroughEntryInput,
  PassthroughHeaderEntry,
  PassthroughPreviewRequest,
  PreviewSample,
} from '../../../../api/types.js';
import { ALL_OPERATIONS, toEntry, type EntryDraft } from '../draft/editor-draft.js';

/** The sample request of the preview as typed; empty fields take the operation's defaults. */
export interface SampleDraft {
  method: string;
  url: string;
  /** `Name: value` per line. */
  headers: string;
}

export const EMPTY_SAMPLE: SampleDraft = { method: '', url: '', headers: '' };

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** `Name: value` lines → headers; lines that are not a header are reported by their 1-based number. */
export function parseSampleHeaders(text: string): { headers: Record<string, string>; badLines: number[] } {
  const headers: Record<string, string> = {};
  const badLines: number[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const colon = line.indexOf(':');
    const name = colon === -1 ? '' : line.slice(0, colon).trim();
    if (!TOKEN.test(name)) {
      badLines.push(index + 1);
      return;
    }
    headers[name] = line.slice(colon + 1).trim();
  });
  return { headers, badLines };
}

function sampleOf(draft: SampleDraft): PreviewSample | undefined {
  const { headers } = parseSampleHeaders(draft.headers);
  const sample: PreviewSample = {
    ...(draft.method ? { method: draft.method } : {}),
    ...(draft.url.trim() ? { url: draft.url.trim() } : {}),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
  };
  return Object.keys(sample).length > 0 ? sample : undefined;
}

/** A preview request, and which header row (by key) each header entry of it came from. */
export interface BuiltPreviewRequest {
  request: PassthroughPreviewRequest;
  rowKeys: number[];
}

/**
 * The unsaved target and header entries of one item, for the preview. Rows without a name yet are left out, so
 * adding a header row does not turn the URL preview into an error.
 */
export function buildPreviewRequest(
  entryKey: string,
  entry: EntryDraft,
  sample: SampleDraft,
): BuiltPreviewRequest {
  const { target } = toEntry(entry);
  const rows = entry.headers.filter((row) => row.name.trim() !== '');
  const headers: PassthroughHeaderEntry[] = rows.map(({ action, name, value }) =>
    action === 'Remove' ? { action, name } : { action, name, value },
  );
  const previewEntry: PassthroughEntryInput = { target, headers };
  const configuration =
    entryKey === ALL_OPERATIONS
      ? { allOperations: previewEntry }
      : { operations: { [entryKey]: previewEntry } };
  const built = sampleOf(sample);
  return {
    request: { configuration, entry: entryKey, ...(built ? { sample: built } : {}) },
    rowKeys: rows.map((row) => row.key),
  };
}

/** The one entry a preview request sends. */
export function previewEntryOf(
  request: PassthroughPreviewRequest | undefined,
): PassthroughEntryInput | undefined {
  const configuration = request?.configuration;
  return configuration?.allOperations ?? Object.values(configuration?.operations ?? {})[0];
}

const SECTION_PLACE = /^section([1-4])$/;

/** `section3` → `Section 3`, `header:0` → `Header entry 1`: how the preview names the place of an error. */
export function describePlace(place: string): string {
  const section = SECTION_PLACE.exec(place);
  if (section) return `Target URL section ${section[1]}`;
  if (place.startsWith('header:')) return `Header entry ${Number(place.slice('header:'.length)) + 1}`;
  if (place === 'sample') return 'Sample request';
  return 'Target URL';
}
