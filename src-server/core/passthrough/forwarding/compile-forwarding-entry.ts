import {
  PASSTHROUGH_DEFAULTS,
  type HeaderEntry,
  type PassthroughEntry,
  type StoredHeaderEntry,
} from '../../model/config-model.js';
import { compilePassthroughEntry, type CompileEntryResult } from '../compile-entry.js';
import type { TemplateCompileContext } from '../../template/index.js';
import { checkHeaderRules } from './header-rule-checks.js';

/**
 * Partial entries (an unsaved editor state, an older record) with every setting filled in. Settings added in later
 * releases (CORS exposed headers, WebSocket) take their defaults here, so stored entries need no migration.
 */
export type PartialPassthroughEntry<Header extends StoredHeaderEntry = HeaderEntry> = {
  target: Partial<PassthroughEntry['target']>;
  cors?: Partial<PassthroughEntry['cors']>;
  headers?: Header[];
  timeouts?: Partial<PassthroughEntry['timeouts']>;
  maxRequestBodyBytes?: number;
  tls?: Partial<PassthroughEntry['tls']>;
  allowWebSocket?: boolean;
};

export function withEntryDefaults<Header extends StoredHeaderEntry = HeaderEntry>(
  entry: PartialPassthroughEntry<Header>,
): PassthroughEntry<Header> {
  return {
    target: {
      section1: entry.target.section1 ?? '',
      section2: entry.target.section2 ?? '',
      section3: entry.target.section3 ?? '',
      ...(entry.target.section4 === undefined ? {} : { section4: entry.target.section4 }),
    },
    cors: {
      ...PASSTHROUGH_DEFAULTS.cors,
      ...entry.cors,
      allowedOrigins: [...(entry.cors?.allowedOrigins ?? [])],
      exposeHeaders: [...(entry.cors?.exposeHeaders ?? [])],
    },
    headers: [...(entry.headers ?? [])],
    timeouts: { ...PASSTHROUGH_DEFAULTS.timeouts, ...entry.timeouts },
    maxRequestBodyBytes: entry.maxRequestBodyBytes ?? PASSTHROUGH_DEFAULTS.maxRequestBodyBytes,
    tls: { ...PASSTHROUGH_DEFAULTS.tls, ...entry.tls },
    allowWebSocket: entry.allowWebSocket ?? PASSTHROUGH_DEFAULTS.allowWebSocket,
  };
}

/** Template compilation plus the header-name rules of forwarding: what the gateway and the preview both run. */
export function compileForwardingEntry(
  entry: PassthroughEntry,
  context: TemplateCompileContext,
): CompileEntryResult {
  const compiled = compilePassthroughEntry(entry, context);
  const headerErrors = checkHeaderRules(entry.headers);
  if (headerErrors.length === 0) return compiled;
  const errors = compiled.ok ? headerErrors : [...compiled.errors, ...headerErrors];
  return { ok: false, errors };
}
