import { ENTRY_BOUNDS, ENTRY_DEFAULTS } from '../../../../api/types.js';
import { ALL_OPERATIONS, parseInteger, type EntryDraft, type PassthroughDraft } from './editor-draft.js';

/** Field (in the server's notation, relative to the entry) → message. */
export type EntryProblems = Record<string, string>;

const NUMBER_FIELDS = [
  ['timeouts.connectMs', 'connectMs', ENTRY_BOUNDS.connectMs, ENTRY_DEFAULTS.timeouts.connectMs],
  ['timeouts.responseMs', 'responseMs', ENTRY_BOUNDS.responseMs, ENTRY_DEFAULTS.timeouts.responseMs],
  [
    'maxRequestBodyBytes',
    'maxRequestBodyBytes',
    ENTRY_BOUNDS.maxRequestBodyBytes,
    ENTRY_DEFAULTS.maxRequestBodyBytes,
  ],
] as const;

function rangeProblem(value: number, bounds: { min: number; max: number }): string | undefined {
  if (Number.isNaN(value)) return 'Enter a whole number, or leave it empty for the default.';
  if (value < bounds.min || value > bounds.max)
    return `From ${bounds.min.toLocaleString('en-US')} to ${bounds.max.toLocaleString('en-US')}.`;
  return undefined;
}

/** What the editor can tell before saving: the numbers a request body could not even carry. */
export function entryProblems(entry: EntryDraft): EntryProblems {
  const problems: EntryProblems = {};
  for (const [field, key, bounds, fallback] of NUMBER_FIELDS) {
    const problem = rangeProblem(parseInteger(entry[key], fallback), bounds);
    if (problem) problems[field] = problem;
  }
  const maxAge = rangeProblem(
    parseInteger(entry.cors.maxAgeSeconds, ENTRY_DEFAULTS.cors.maxAgeSeconds),
    ENTRY_BOUNDS.maxAgeSeconds,
  );
  if (maxAge) problems['cors.maxAgeSeconds'] = maxAge;
  return problems;
}

/** The entries (editor keys) with problems the user must correct before saving. */
export function entriesWithProblems(draft: PassthroughDraft): string[] {
  const entries: [string, EntryDraft][] = [
    ...(draft.allOperations ? [[ALL_OPERATIONS, draft.allOperations] as [string, EntryDraft]] : []),
    ...Object.entries(draft.operations),
  ];
  return entries.filter(([, entry]) => Object.keys(entryProblems(entry)).length > 0).map(([key]) => key);
}
