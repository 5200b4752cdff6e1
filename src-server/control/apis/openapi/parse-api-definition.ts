import { decodeInput, DEFAULT_MAX_BYTES } from './decode-input.js';
import { DEFAULT_MAX_ALIAS_EXPANSION, scanDocument } from './document-scan.js';
import { extractDefinition } from './extract-definition.js';
import { DEFAULT_MAX_ERRORS, DEFAULT_MAX_WARNINGS, IssueCollector } from './issues.js';
import { MAX_NESTING_DEPTH, parseText } from './parse-text.js';
import { validateDocument } from './validate-document.js';
import type { DefinitionIssue, ParseApiDefinitionOptions, ParseApiDefinitionResult } from './types.js';

/**
 * Parses and validates an OpenAPI 3.1 / 3.0 or Swagger 2.0 document (JSON or YAML, told apart by
 * content) and extracts what the gateway needs. Never throws for any input: every problem becomes
 * an error with a JSON pointer.
 */
export function parseApiDefinition(
  input: Buffer | string,
  options: ParseApiDefinitionOptions = {},
): ParseApiDefinitionResult {
  try {
    return parseOrFail(input, options);
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

function parseOrFail(input: Buffer | string, options: ParseApiDefinitionOptions): ParseApiDefinitionResult {
  const decoded = decodeInput(input, limit(options.maxBytes, DEFAULT_MAX_BYTES));
  if (!decoded.ok) return failure(decoded.error);
  const parsed = parseText(decoded.text);
  if (!parsed.ok) return failure(parsed.error);
  const scan = scanDocument(parsed.value, {
    maxDepth: MAX_NESTING_DEPTH,
    maxAliasExpansion: limit(options.maxAliasExpansion, DEFAULT_MAX_ALIAS_EXPANSION),
    valuesMayBeShared: parsed.hasAliases,
  });
  if (!scan.ok) return failure(scan.error);
  const issues = new IssueCollector(
    limit(options.maxErrors, DEFAULT_MAX_ERRORS),
    limit(options.maxWarnings, DEFAULT_MAX_WARNINGS),
  );
  if (parsed.warning) issues.warning(parsed.warning.pointer, parsed.warning.message);
  const validated = validateDocument(parsed.value, scan.refSites, issues);
  const { errors, warnings } = issues.finish();
  if (!validated) return { ok: false, errors, warnings };
  return {
    ok: true,
    definition: extractDefinition(validated, parsed.format, warnings),
    document: parsed.value,
  };
}

/** The option when it is a number that is not NaN (`Infinity` lifts a limit), otherwise the default. */
function limit(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && !Number.isNaN(value) ? value : fallback;
}

function failure(error: DefinitionIssue): ParseApiDefinitionResult {
  return { ok: false, errors: [error], warnings: [] };
}
