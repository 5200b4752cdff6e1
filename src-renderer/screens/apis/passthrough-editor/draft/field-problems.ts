import { previewEntryOf } from '../preview/preview-request.js';
import type { PreviewResult } from '../preview/use-target-preview.js';
import type { TemplateProblem } from '../references/ErrorMarker.js';
import type { EntryDraft, HeaderRow } from './editor-draft.js';
import type { EntryProblems } from './entry-problems.js';
import { positionInMessage, type FieldMessages } from './save-errors.js';

/** Everything that can say something is wrong with a field of the selected entry. */
export interface ProblemSources {
  entry: EntryDraft;
  /** The latest preview: its errors hold while the text they were found in is unchanged. */
  preview: PreviewResult | undefined;
  /** The last refused save's messages that still apply. */
  saved: FieldMessages;
  /** What the editor checks itself. */
  local: EntryProblems;
}

export type SectionNumber = 1 | 2 | 3 | 4;

function fromSaveMessage(message: string): TemplateProblem {
  const position = positionInMessage(message);
  if (position === undefined) return { message };
  return { position, message: message.replace(/^.*?\bposition \d+:\s*/, '') };
}

/** Preview and save errors of one text, each once. */
function merged(problems: TemplateProblem[]): TemplateProblem[] {
  const seen = new Set<string>();
  return problems.filter((problem) => {
    const key = `${problem.position ?? ''}:${problem.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function sectionProblems(section: SectionNumber, sources: ProblemSources): TemplateProblem[] {
  const place = `section${section}` as const;
  const fromPreview: TemplateProblem[] = [];
  const text = sources.entry.target[place];
  const sent = previewEntryOf(sources.preview?.request)?.target[place] ?? '';
  // An empty section (a new entry's section 1) is not marked while typing; saving still names it.
  if (sources.preview?.preview && text !== '' && sent === text) {
    for (const error of sources.preview.preview.errors) {
      if (error.place === place)
        fromPreview.push({ position: error.position, length: error.length, message: error.message });
    }
  }
  const fromSave = (sources.saved[`target.${place}`] ?? []).map(fromSaveMessage);
  return merged([...fromPreview, ...fromSave]);
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export interface HeaderRowProblems {
  action: string[];
  name: string[];
  value: TemplateProblem[];
}

/** The problems of one header row: the preview's `header:<i>` errors belong to the name or to the value. */
export function headerRowProblems(row: HeaderRow, index: number, sources: ProblemSources): HeaderRowProblems {
  const problems: HeaderRowProblems = { action: [], name: [], value: [] };
  const preview = sources.preview;
  const previewIndex = preview?.rowKeys.indexOf(row.key) ?? -1;
  const sent = previewIndex === -1 ? undefined : previewEntryOf(preview?.request)?.headers?.[previewIndex];
  const unchanged =
    sent !== undefined &&
    sent.name === row.name &&
    (sent.action === 'Remove' ? row.action === 'Remove' : sent.value === row.value);
  if (preview?.preview && unchanged) {
    for (const error of preview.preview.errors) {
      if (error.place !== `header:${previewIndex}`) continue;
      // Rule errors are about the name (position 0 over its length); template errors point into the value.
      if (!TOKEN.test(row.name) || error.message.includes(row.name)) problems.name.push(error.message);
      else problems.value.push({ position: error.position, length: error.length, message: error.message });
    }
  }
  const at = `headers[${index}]`;
  problems.action.push(...(sources.saved[`${at}.action`] ?? []));
  problems.name.push(...(sources.saved[`${at}.name`] ?? []));
  problems.value.push(...(sources.saved[`${at}.value`] ?? []).map(fromSaveMessage));
  problems.name = [...new Set(problems.name)];
  problems.value = merged(problems.value);
  return problems;
}

/** Messages of a plain field (`timeouts.connectMs`, `cors.allowedOrigins`, …): the editor's own, then the server's. */
export function fieldProblems(field: string, sources: ProblemSources): string[] {
  const local = sources.local[field];
  return [...(local ? [local] : []), ...(sources.saved[field] ?? [])];
}

/** Fields the editor shows messages at; the server's messages for any other field are listed over the entry. */
const SHOWN_FIELDS = [
  /^target\.section[1-4]$/,
  /^headers\[\d+\]\.(action|name|value)$/,
  /^cors\.(allowedOrigins(\[\d+\])?|exposeHeaders(\[\d+\])?|allowCredentials|maxAgeSeconds)$/,
  /^timeouts\.(connectMs|responseMs)$/,
  /^maxRequestBodyBytes$/,
  /^tls\.caCertificate$/,
];

export function unshownMessages(saved: FieldMessages): string[] {
  return Object.entries(saved)
    .filter(([field]) => !SHOWN_FIELDS.some((pattern) => pattern.test(field)))
    .flatMap(([field, messages]) => messages.map((message) => (field ? `${field}: ${message}` : message)));
}
