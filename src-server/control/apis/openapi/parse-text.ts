import { constructFromEvents, CORE_SCHEMA, EVENT_ID, mergeTag, parseEvents, YAMLException } from 'js-yaml';
import { lineAndColumn, locateJsonSyntaxError } from './json-syntax-error.js';
import type { DefinitionIssue, DocumentFormat } from './types.js';

/**
 * Nesting limit for YAML collections. js-yaml's composer is recursive and overflows the stack
 * somewhere above 1,000 levels; real API documents stay far below 100.
 */
export const MAX_NESTING_DEPTH = 500;

// YAML 1.2 core schema plus `<<` merge keys: no timestamps or binary, `3.0` stays a number, unknown
// tags are errors. Duplicate keys are read as YAML 1.1 parsers read them (the last one wins), with a warning.
const YAML_SCHEMA = CORE_SCHEMA.withTags(mergeTag);
const YAML_CONSTRUCTOR_LIMITS = { maxAliases: 100_000, maxTotalMergeKeys: 1_000_000 };

export type ParsedText =
  | {
      ok: true;
      value: unknown;
      format: DocumentFormat;
      /** True when YAML aliases were used, so objects may be shared (or even cyclic). */
      hasAliases: boolean;
      /** Set when text that looked like JSON was not valid JSON but was read as YAML. */
      warning?: DefinitionIssue;
    }
  | { ok: false; error: DefinitionIssue };

/**
 * Parses JSON or YAML, chosen by content: text whose first non-blank character is `{` or `[` is
 * read as JSON; if that fails but it is valid YAML (a flow mapping, or JSON with a trailing comma)
 * it is accepted as YAML with a warning naming the JSON error, otherwise the JSON error is reported.
 */
export function parseText(text: string): ParsedText {
  const firstChar = text.trimStart().charAt(0);
  if (firstChar === '') return { ok: false, error: { pointer: '', message: 'the document is empty' } };
  if (firstChar !== '{' && firstChar !== '[') return parseYaml(text);
  try {
    return { ok: true, value: JSON.parse(text) as unknown, format: 'json', hasAliases: false };
  } catch (jsonError) {
    if (!(jsonError instanceof SyntaxError)) throw jsonError;
    const jsonIssue = jsonSyntaxIssue(text, jsonError);
    const asYaml = parseYaml(text);
    if (!asYaml.ok) return { ok: false, error: jsonIssue };
    return {
      ...asYaml,
      warning: { pointer: '', message: `read as YAML because it is not valid JSON: ${jsonIssue.message}` },
    };
  }
}

/** js-yaml's `load`, split in its two public steps so the alias events can be counted in between. */
function parseYaml(text: string): ParsedText {
  try {
    const events = parseEvents(text, { maxDepth: MAX_NESTING_DEPTH });
    const hasAliases = events.some((event) => event.type === EVENT_ID.ALIAS);
    const { documents, warning } = construct(events, text);
    if (documents.length === 0)
      return { ok: false, error: { pointer: '', message: 'the document is empty' } };
    const value: unknown = documents[0];
    const severalWarning: DefinitionIssue | undefined =
      documents.length > 1
        ? {
            pointer: '',
            message: `the file holds ${documents.length} YAML documents; only the first is read`,
          }
        : undefined;
    const first = warning ?? severalWarning;
    return { ok: true, value, format: 'yaml', hasAliases, ...(first ? { warning: first } : {}) };
  } catch (error) {
    return { ok: false, error: yamlIssue(error) };
  }
}

/** Strict first; a duplicated key is then read as YAML 1.1 parsers do (the last value wins), with a warning. */
function construct(
  events: ReturnType<typeof parseEvents>,
  text: string,
): { documents: unknown[]; warning?: DefinitionIssue } {
  const options = { source: text, schema: YAML_SCHEMA, ...YAML_CONSTRUCTOR_LIMITS };
  try {
    return { documents: constructFromEvents(events, options) };
  } catch (error) {
    if (!(error instanceof YAMLException) || error.reason !== 'duplicated mapping key') throw error;
    const issue = yamlIssue(error);
    const where = issue.line === undefined ? '' : ` at line ${issue.line}, column ${issue.column}`;
    return {
      documents: constructFromEvents(events, { ...options, json: true }),
      warning: { pointer: '', message: `duplicated mapping key${where}: the last value is used` },
    };
  }
}

function yamlIssue(error: unknown): DefinitionIssue {
  if (error instanceof YAMLException) {
    const reason = error.reason || error.message;
    if (!error.mark) return { pointer: '', message: `YAML error: ${reason}` };
    const line = error.mark.line + 1;
    const column = error.mark.column + 1;
    return {
      pointer: '',
      message: `YAML syntax error at line ${line}, column ${column}: ${reason}`,
      line,
      column,
    };
  }
  // js-yaml documents that other exceptions (e.g. RangeError on pathological input) may escape.
  const message = error instanceof Error ? error.message : String(error);
  return { pointer: '', message: `the YAML document could not be read: ${message}` };
}

function jsonSyntaxIssue(text: string, error: SyntaxError): DefinitionIssue {
  const located = locateJsonSyntaxError(text);
  if (!located) return { pointer: '', message: `JSON syntax error: ${error.message}` };
  const { line, column } = lineAndColumn(text, located.offset);
  return {
    pointer: '',
    message: `JSON syntax error at line ${line}, column ${column}: ${located.message}`,
    line,
    column,
  };
}
