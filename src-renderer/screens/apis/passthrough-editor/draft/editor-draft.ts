import {
  ENTRY_DEFAULTS,
  type HeaderAction,
  type Passthrough,
  type PassthroughConfiguration,
  type PassthroughEntry,
} from '../../../../api/types.js';

/** The editor's key of the `All operations` item; operations use their key (`GET /orders/{orderId}`). */
export const ALL_OPERATIONS = 'allOperations';

export interface HeaderRow {
  /** Stable identity for React while rows move. */
  key: number;
  action: HeaderAction;
  name: string;
  /** Kept while the action is Remove (the field is disabled), sent only for Add and Overwrite. */
  value: string;
}

/** One item of the editor as typed: numbers stay text until saved, so a half-typed value can be shown. */
export interface EntryDraft {
  target: { section1: string; section2: string; section3: string; section4: string };
  cors: {
    enabled: boolean;
    allowedOrigins: string[];
    allowCredentials: boolean;
    maxAgeSeconds: string;
    exposeHeaders: string[];
  };
  headers: HeaderRow[];
  connectMs: string;
  responseMs: string;
  maxRequestBodyBytes: string;
  tlsVerify: boolean;
  caCertificate: string;
  allowWebSocket: boolean;
}

export interface PassthroughDraft {
  allOperations?: EntryDraft;
  operations: Record<string, EntryDraft>;
}

let nextRowKey = 1;

export function newHeaderRow(action: HeaderAction = 'Overwrite'): HeaderRow {
  return { key: nextRowKey++, action, name: '', value: '' };
}

export function emptyEntryDraft(): EntryDraft {
  return {
    target: { section1: '', section2: '', section3: '', section4: '' },
    cors: {
      enabled: ENTRY_DEFAULTS.cors.enabled,
      allowedOrigins: [],
      allowCredentials: ENTRY_DEFAULTS.cors.allowCredentials,
      maxAgeSeconds: String(ENTRY_DEFAULTS.cors.maxAgeSeconds),
      exposeHeaders: [],
    },
    headers: [],
    connectMs: String(ENTRY_DEFAULTS.timeouts.connectMs),
    responseMs: String(ENTRY_DEFAULTS.timeouts.responseMs),
    maxRequestBodyBytes: String(ENTRY_DEFAULTS.maxRequestBodyBytes),
    tlsVerify: ENTRY_DEFAULTS.tls.verify,
    caCertificate: '',
    allowWebSocket: ENTRY_DEFAULTS.allowWebSocket,
  };
}

export function entryDraftOf(entry: PassthroughEntry): EntryDraft {
  return {
    target: {
      section1: entry.target.section1,
      section2: entry.target.section2,
      section3: entry.target.section3,
      section4: entry.target.section4 ?? '',
    },
    cors: {
      enabled: entry.cors.enabled,
      allowedOrigins: [...entry.cors.allowedOrigins],
      allowCredentials: entry.cors.allowCredentials,
      maxAgeSeconds: String(entry.cors.maxAgeSeconds),
      exposeHeaders: [...entry.cors.exposeHeaders],
    },
    headers: entry.headers.map((header) => ({
      key: nextRowKey++,
      action: header.action,
      name: header.name,
      value: header.value ?? '',
    })),
    connectMs: String(entry.timeouts.connectMs),
    responseMs: String(entry.timeouts.responseMs),
    maxRequestBodyBytes: String(entry.maxRequestBodyBytes),
    tlsVerify: entry.tls.verify,
    caCertificate: entry.tls.caCertificate ?? '',
    allowWebSocket: entry.allowWebSocket,
  };
}

/** A new operation entry starts as a copy of `All operations` (its header rows get their own identities). */
export function copyEntryDraft(entry: EntryDraft): EntryDraft {
  return {
    ...entry,
    target: { ...entry.target },
    cors: {
      ...entry.cors,
      allowedOrigins: [...entry.cors.allowedOrigins],
      exposeHeaders: [...entry.cors.exposeHeaders],
    },
    headers: entry.headers.map((row) => ({ ...row, key: nextRowKey++ })),
  };
}

export function draftOf(passthrough: Passthrough | undefined): PassthroughDraft {
  // Nothing saved yet: the editor opens on an empty All operations entry, the usual start.
  if (!passthrough) return { allOperations: emptyEntryDraft(), operations: {} };
  return {
    ...(passthrough.allOperations ? { allOperations: entryDraftOf(passthrough.allOperations) } : {}),
    operations: Object.fromEntries(
      Object.entries(passthrough.operations).map(([key, entry]) => [key, entryDraftOf(entry)]),
    ),
  };
}

export function entryDraftFor(draft: PassthroughDraft, key: string): EntryDraft | undefined {
  return key === ALL_OPERATIONS ? draft.allOperations : draft.operations[key];
}

export function withEntry(
  draft: PassthroughDraft,
  key: string,
  entry: EntryDraft | undefined,
): PassthroughDraft {
  if (key === ALL_OPERATIONS) {
    const { allOperations: _previous, ...rest } = draft;
    return entry ? { ...rest, allOperations: entry } : rest;
  }
  const { [key]: _previous, ...operations } = draft.operations;
  return { ...draft, operations: entry ? { ...operations, [key]: entry } : operations };
}

/** Text → integer; blank means the server's default. Anything else that is not an integer is a problem. */
export function parseInteger(text: string, fallback: number): number {
  const trimmed = text.trim();
  if (trimmed === '') return fallback;
  return /^-?\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

export function toEntry(draft: EntryDraft): PassthroughEntry {
  const { section1, section2, section3, section4 } = draft.target;
  const caCertificate = draft.caCertificate.trim();
  return {
    target: { section1, section2, section3, ...(section4 !== '' ? { section4 } : {}) },
    cors: {
      enabled: draft.cors.enabled,
      allowedOrigins: draft.cors.allowedOrigins,
      allowCredentials: draft.cors.allowCredentials,
      maxAgeSeconds: parseInteger(draft.cors.maxAgeSeconds, ENTRY_DEFAULTS.cors.maxAgeSeconds),
      exposeHeaders: draft.cors.exposeHeaders,
    },
    headers: draft.headers.map(({ action, name, value }) =>
      action === 'Remove' ? { action, name } : { action, name, value },
    ),
    timeouts: {
      connectMs: parseInteger(draft.connectMs, ENTRY_DEFAULTS.timeouts.connectMs),
      responseMs: parseInteger(draft.responseMs, ENTRY_DEFAULTS.timeouts.responseMs),
    },
    maxRequestBodyBytes: parseInteger(draft.maxRequestBodyBytes, ENTRY_DEFAULTS.maxRequestBodyBytes),
    tls: { verify: draft.tlsVerify, ...(caCertificate !== '' ? { caCertificate } : {}) },
    allowWebSocket: draft.allowWebSocket,
  };
}

/** The body of a save, operations in a stable order so two equal drafts give the same JSON. */
export function toConfiguration(draft: PassthroughDraft): PassthroughConfiguration {
  const keys = Object.keys(draft.operations).sort();
  return {
    ...(draft.allOperations ? { allOperations: toEntry(draft.allOperations) } : {}),
    operations: Object.fromEntries(keys.map((key) => [key, toEntry(draft.operations[key]!)])),
  };
}

/** Equal signatures: nothing to save. */
export function draftSignature(draft: PassthroughDraft): string {
  return JSON.stringify(toConfiguration(draft));
}
