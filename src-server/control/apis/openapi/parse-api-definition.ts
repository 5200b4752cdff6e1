import { decodeInput, DEFAULT_MAX_BYTES } from './decode-input.js';
import { DEFAULT_MAX_ALIAS_EXPANSION, scanDocument } from './document-scan.js';
import { extractDefinition } from './extract-definition.js';
import { DEFAULT_MAX_WARNINGS, IssueCollector } from './issues.js';
import { MAX_NESTING_DEPTH, parseText, type ParsedText } from './parse-text.js';
import { validateDocument } from './validate-document.js';
import { jsonRefIndex, refIndexOfSites, type RefIndex } from './ref-index.js';
import type { DefinitionIssue, ParseApiDefinitionOptions, ParseApiDefinitionResult } from './types.js';

/**
 * Parses and validates an OpenAPI 3.2 / 3.1 / 3.0 or Swagger 2.0 document (JSON or YAML, told apart by
 * content) and extracts what the gateway needs. Import, then report: the document is refused only when nothing
 * usable can be taken from it; every other problem is a warning with a JSON pointer, and operations that can't
 * be exposed are listed as skipped. Never throws for any input.
 */
export function parseApiDefinition(
  input: Buffer | string,
  options: ParseApiDefinitionOptions = {},
): ParseApiDefinitionResult {
  return guarded(() => {
    const read = readDocument(input, options);
    if (!read.ok) return failure(read.error);
    return validateParsed(read.parsed, read.refs, options);
  });
}

export type ReadDocument =
  | { ok: true; parsed: Extract<ParsedText, { ok: true }>; refs: RefIndex }
  | { ok: false; error: DefinitionIssue };

/** Decoding, parsing and the safety scan (depth, alias bombs, `$ref` sites): the steps before validation. */
export function readDocument(input: Buffer | string, options: ParseApiDefinitionOptions = {}): ReadDocument {
  const decoded = decodeInput(input, limit(options.maxBytes, DEFAULT_MAX_BYTES));
  if (!decoded.ok) return decoded;
  const parsed = parseText(decoded.text);
  if (!parsed.ok) return parsed;
  if (parsed.format === 'json') {
    const indexed = jsonRefIndex(decoded.text, parsed.value, MAX_NESTING_DEPTH);
    return indexed.ok ? { ok: true, parsed, refs: indexed.index } : indexed;
  }
  const scan = scanDocument(parsed.value, {
    maxDepth: MAX_NESTING_DEPTH,
    maxAliasExpansion: limit(options.maxAliasExpansion, DEFAULT_MAX_ALIAS_EXPANSION),
    valuesMayBeShared: parsed.hasAliases,
  });
  if (!scan.ok) return scan;
  return { ok: true, parsed, refs: refIndexOfSites(scan.refSites) };
}

/** Validation and extraction of a document `readDocument` accepted (possibly bundled since). */
export function validateParsed(
  parsed: Extract<ParsedText, { ok: true }>,
  refs: RefIndex,
  options: ParseApiDefinitionOptions = {},
  extraWarnings: readonly DefinitionIssue[] = [],
): ParseApiDefinitionResult {
  return guarded(() => {
    const issues = new IssueCollector(limit(options.maxWarnings, DEFAULT_MAX_WARNINGS));
    if (parsed.warning) issues.warning(parsed.warning.pointer, parsed.warning.message);
    for (const warning of extraWarnings) issues.warning(warning.pointer, warning.message);
    const validated = validateDocument(parsed.value, refs, issues, {
      ...(options.documentUrl === undefined ? {} : { documentUrl: options.documentUrl }),
      ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    });
    const { refusals, warnings, skipped } = issues.finish();
    if (!validated || refusals.length > 0) return { ok: false, errors: refusals, warnings };
    return {
      ok: true,
      definition: extractDefinition(validated, parsed.format, { warnings, skipped }),
      document: parsed.value,
    };
  });
}

function guarded(run: () => ParseApiDefinitionResult): ParseApiDefinitionResult {
  try {
    return run();
  } catch (error) {
    // Safety net for bugs: a malformed upload must never crash the server. Tests assert it is unused.
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      errors: [{ pointer: '', message: `internal error while reading the document: ${message}` }],
      warnings: [],
    };
  }
}

/** The option when it is a number that is not NaN (`Infinity` lifts a limit), otherwise the default. */
function limit(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && !Number.isNaN(value) ? value : fallback;
}

function failure(error: DefinitionIssue): ParseApiDefinitionResult {
  return { ok: false, errors: [error], warnings: [] };
}
