import type { PassthroughConfiguration, PassthroughEntry } from '../../../../api/types.js';
import { ALL_OPERATIONS } from './editor-draft.js';

/** Field of an entry (`target.section3`, `headers[0].value`, `''` for the entry itself) → messages. */
export type FieldMessages = Record<string, string[]>;

/** A refused save's validation errors, sorted by the entry they belong to. */
export interface SaveErrors {
  byEntry: Record<string, FieldMessages>;
  /** Messages about the body as a whole (`operations`, `policy.agentGroupId`, …), as `field: message`. */
  general: string[];
  /** The configuration as sent: a field's messages are shown while its value is still the one sent. */
  sent: PassthroughConfiguration;
}

const OPERATION_KEY = /^operations\[("(?:[^"\\]|\\.)*")\]/;

/** `operations["GET /orders/{id}"].target.section3` → the entry `GET /orders/{id}`, field `target.section3`. */
export function splitErrorKey(key: string): { entry: string; field: string } | undefined {
  if (key === ALL_OPERATIONS || key.startsWith(`${ALL_OPERATIONS}.`)) {
    return { entry: ALL_OPERATIONS, field: key.slice(ALL_OPERATIONS.length + 1) };
  }
  const match = OPERATION_KEY.exec(key);
  if (!match) return undefined;
  const rest = key.slice(match[0].length);
  return { entry: JSON.parse(match[1]!) as string, field: rest.startsWith('.') ? rest.slice(1) : rest };
}

export function parseSaveErrors(
  errors: Record<string, string[]>,
  sent: PassthroughConfiguration,
): SaveErrors {
  const byEntry: Record<string, FieldMessages> = {};
  const general: string[] = [];
  for (const [key, messages] of Object.entries(errors)) {
    const split = splitErrorKey(key);
    if (!split) {
      general.push(...messages.map((message) => `${key}: ${message}`));
      continue;
    }
    const fields = (byEntry[split.entry] ??= {});
    (fields[split.field] ??= []).push(...messages);
  }
  return { byEntry, general, sent };
}

/** `headers[0].value` → `['headers', 0, 'value']`. */
function segmentsOf(field: string): (string | number)[] {
  const segments: (string | number)[] = [];
  for (const match of field.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    segments.push(match[2] !== undefined ? Number(match[2]) : match[1]!);
  }
  return segments;
}

function valueAt(root: unknown, field: string): unknown {
  let value = root;
  for (const segment of segmentsOf(field)) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string | number, unknown>)[segment];
  }
  return value;
}

function sentEntry(sent: PassthroughConfiguration, entryKey: string): PassthroughEntry | undefined {
  return entryKey === ALL_OPERATIONS ? sent.allOperations : sent.operations[entryKey];
}

/** The messages that still apply to an entry as it is now: a field changed since the save loses its messages. */
export function currentFieldMessages(
  errors: SaveErrors | undefined,
  entryKey: string,
  current: PassthroughEntry | undefined,
): FieldMessages {
  const fields = errors?.byEntry[entryKey];
  if (!errors || !fields || !current) return {};
  const sent = sentEntry(errors.sent, entryKey);
  const applying: FieldMessages = {};
  for (const [field, messages] of Object.entries(fields)) {
    if (field === '' || JSON.stringify(valueAt(sent, field)) === JSON.stringify(valueAt(current, field))) {
      applying[field] = messages;
    }
  }
  return applying;
}

/** `section 3, position 28: the expression ends too early` → 28 (template messages name the 0-based position). */
export function positionInMessage(message: string): number | undefined {
  const match = /\bposition (\d+):/.exec(message);
  return match ? Number(match[1]) : undefined;
}
