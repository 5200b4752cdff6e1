import type { SourceError } from './source-error.js';

/**
 * Tokenizer of the expression language inside `{{ … }}`: a small, C#-flavoured subset.
 * Positions are offsets in the whole template text (the span's offset is passed in).
 */

export type Punctuator =
  | '('
  | ')'
  | '.'
  | ','
  | '['
  | ']'
  | '?'
  | ':'
  | '!'
  | '+'
  | '-'
  | '<'
  | '>'
  | '<='
  | '>='
  | '=='
  | '!='
  | '&&'
  | '||'
  | '??';

export type Token =
  | { kind: 'identifier'; name: string; start: number; end: number }
  | { kind: 'reference'; root: string; start: number; end: number }
  | { kind: 'string'; value: string; start: number; end: number }
  | { kind: 'integer'; value: number; start: number; end: number }
  | { kind: 'punctuator'; value: Punctuator; start: number; end: number }
  | { kind: 'end'; start: number; end: number };

export type TokenizeResult = { ok: true; tokens: Token[] } | { ok: false; error: SourceError };

const TWO_CHAR_PUNCTUATORS: ReadonlySet<string> = new Set(['<=', '>=', '==', '!=', '&&', '||', '??']);
const ONE_CHAR_PUNCTUATORS: ReadonlySet<string> = new Set([
  '(',
  ')',
  '.',
  ',',
  '[',
  ']',
  '?',
  ':',
  '!',
  '+',
  '-',
  '<',
  '>',
]);

const UNSUPPORTED_OPERATORS: ReadonlyMap<string, string> = new Map([
  ['=>', 'lambdas (=>) are not supported'],
  ['?.', "the null-conditional operator '?.' is not supported; use ?? to give a default"],
  ['?[', "the null-conditional operator '?[' is not supported; use ?? to give a default"],
  ['<<', "the shift operator '<<' is not supported"],
  ['>>', "the shift operator '>>' is not supported"],
  ['??=', 'assignment is not supported'],
]);

const UNSUPPORTED_CHARACTERS: ReadonlyMap<string, string> = new Map([
  ['*', "the operator '*' is not supported; only + (text concatenation or integer addition) is"],
  ['/', "the operator '/' is not supported; only + (text concatenation or integer addition) is"],
  ['%', "the operator '%' is not supported; only + (text concatenation or integer addition) is"],
  ['=', "assignment is not supported; use '==' to compare"],
  ['&', "the bitwise operator '&' is not supported; use '&&' for a logical and"],
  ['|', "the bitwise operator '|' is not supported; use '||' for a logical or"],
  ['^', "the operator '^' is not supported"],
  ['~', "the operator '~' is not supported"],
  ['{', "'{' is not supported inside '{{ … }}'; write a literal brace as \"{\""],
  ['}', "'}' is not supported inside '{{ … }}'; write a literal brace as \"}\""],
  [';', 'statements are not supported; a span holds one expression'],
  ['$', 'interpolated strings ($"…") are not supported; join text with +'],
]);

const SIMPLE_ESCAPES: ReadonlyMap<string, string> = new Map([
  ["'", "'"],
  ['"', '"'],
  ['\\', '\\'],
  ['0', '\0'],
  ['a', '\x07'],
  ['b', '\b'],
  ['e', '\x1b'],
  ['f', '\f'],
  ['n', '\n'],
  ['r', '\r'],
  ['t', '\t'],
  ['v', '\v'],
]);

/** More digits than this cannot be a 32-bit integer; refusing early keeps the value exact. */
const MAX_INTEGER_DIGITS = 10;

export function tokenize(source: string, offset: number): TokenizeResult {
  const tokens: Token[] = [];
  let i = 0;
  const fail = (at: number, length: number, message: string): TokenizeResult => ({
    ok: false,
    error: { position: offset + at, length, message },
  });

  while (i < source.length) {
    const c = source[i] as string;
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    if (isIdentifierStart(c)) {
      const end = identifierEnd(source, i);
      tokens.push({ kind: 'identifier', name: source.slice(i, end), start: offset + i, end: offset + end });
      i = end;
      continue;
    }
    if (c === '#') {
      if (!isIdentifierStart(source[i + 1] ?? '')) {
        return fail(i, 1, "'#' must start a reference such as #env.<variable> or #api.QueryParameters");
      }
      const end = identifierEnd(source, i + 1);
      tokens.push({
        kind: 'reference',
        root: source.slice(i + 1, end),
        start: offset + i,
        end: offset + end,
      });
      i = end;
      continue;
    }
    if (isDigit(c)) {
      let end = i;
      while (isDigit(source[end] ?? '')) end++;
      const next = source[end] ?? '';
      if (next === '.' && isDigit(source[end + 1] ?? '')) {
        return fail(i, end + 2 - i, 'decimal numbers are not supported; only whole numbers are');
      }
      if (isIdentifierPart(next)) {
        return fail(i, end + 1 - i, 'unsupported number format; write whole numbers in decimal digits only');
      }
      if (end - i > MAX_INTEGER_DIGITS) return fail(i, end - i, 'this number is too large');
      tokens.push({
        kind: 'integer',
        value: Number(source.slice(i, end)),
        start: offset + i,
        end: offset + end,
      });
      i = end;
      continue;
    }
    if (c === '"' || c === "'" || (c === '@' && source[i + 1] === '"')) {
      const literal =
        c === '@'
          ? readVerbatimString(source, i)
          : c === '"'
            ? readString(source, i)
            : readCharacter(source, i);
      if (!literal.ok) return fail(literal.at, literal.length, literal.message);
      tokens.push({ kind: 'string', value: literal.value, start: offset + i, end: offset + literal.end });
      i = literal.end;
      continue;
    }
    const three = source.slice(i, i + 3);
    const two = source.slice(i, i + 2);
    const unsupported = UNSUPPORTED_OPERATORS.get(three) ?? UNSUPPORTED_OPERATORS.get(two);
    if (unsupported !== undefined) return fail(i, UNSUPPORTED_OPERATORS.has(three) ? 3 : 2, unsupported);
    if (TWO_CHAR_PUNCTUATORS.has(two)) {
      tokens.push({ kind: 'punctuator', value: two as Punctuator, start: offset + i, end: offset + i + 2 });
      i += 2;
      continue;
    }
    if (ONE_CHAR_PUNCTUATORS.has(c)) {
      tokens.push({ kind: 'punctuator', value: c as Punctuator, start: offset + i, end: offset + i + 1 });
      i++;
      continue;
    }
    if (c === '/' && source.slice(0, i).trim() === '') {
      return fail(
        i,
        1,
        'closing blocks such as {{/if}} are not supported; use the conditional operator: condition ? a : b',
      );
    }
    const message = UNSUPPORTED_CHARACTERS.get(c);
    if (message !== undefined) return fail(i, 1, message);
    if (c === '@') return fail(i, 1, '\'@\' is only supported before a verbatim string (@"…")');
    const codePoint = source.codePointAt(i) ?? 0;
    return fail(
      i,
      codePoint > 0xffff ? 2 : 1,
      `unexpected character ${describeCharacter(codePoint)} in an expression`,
    );
  }
  tokens.push({ kind: 'end', start: offset + source.length, end: offset + source.length });
  return { ok: true, tokens };
}

type LiteralRead =
  { ok: true; value: string; end: number } | { ok: false; at: number; length: number; message: string };

function readString(source: string, quoteAt: number): LiteralRead {
  let value = '';
  let i = quoteAt + 1;
  while (i < source.length) {
    const c = source[i] as string;
    if (c === '"') return { ok: true, value, end: i + 1 };
    if (c === '\\') {
      const escape = readEscape(source, i);
      if (!escape.ok) return escape;
      value += escape.value;
      i = escape.end;
      continue;
    }
    value += c;
    i++;
  }
  return { ok: false, at: quoteAt, length: 1, message: 'this string literal is not closed' };
}

function readVerbatimString(source: string, atSign: number): LiteralRead {
  let value = '';
  let i = atSign + 2;
  while (i < source.length) {
    const c = source[i] as string;
    if (c === '"') {
      if (source[i + 1] !== '"') return { ok: true, value, end: i + 1 };
      value += '"';
      i += 2;
      continue;
    }
    value += c;
    i++;
  }
  return { ok: false, at: atSign, length: 2, message: 'this verbatim string literal is not closed' };
}

/** A C# character literal ('x') is accepted as a one-character string, e.g. for Replace('-', '_'). */
function readCharacter(source: string, quoteAt: number): LiteralRead {
  const first = source[quoteAt + 1];
  if (first === undefined) {
    return { ok: false, at: quoteAt, length: 1, message: 'this character literal is not closed' };
  }
  if (first === "'") return { ok: false, at: quoteAt, length: 2, message: 'empty character literal' };
  const content =
    first === '\\' ? readEscape(source, quoteAt + 1) : { ok: true as const, value: first, end: quoteAt + 2 };
  if (!content.ok) return content;
  if (source[content.end] !== "'" || content.value.length !== 1) {
    return {
      ok: false,
      at: quoteAt,
      length: Math.max(1, content.end - quoteAt),
      message: 'a character literal holds exactly one character; use "…" for text',
    };
  }
  return { ok: true, value: content.value, end: content.end + 1 };
}

function readEscape(source: string, backslashAt: number): LiteralRead {
  const kind = source[backslashAt + 1];
  if (kind === undefined) {
    return { ok: false, at: backslashAt, length: 1, message: 'incomplete escape sequence' };
  }
  const simple = SIMPLE_ESCAPES.get(kind);
  if (simple !== undefined) return { ok: true, value: simple, end: backslashAt + 2 };
  if (kind === 'u' || kind === 'U' || kind === 'x') {
    const maxDigits = kind === 'u' ? 4 : kind === 'U' ? 8 : 4;
    let end = backslashAt + 2;
    while (end < backslashAt + 2 + maxDigits && isHexDigit(source[end] ?? '')) end++;
    const digits = source.slice(backslashAt + 2, end);
    const exact = kind === 'x' ? digits.length >= 1 : digits.length === maxDigits;
    const codePoint = Number.parseInt(digits, 16);
    if (!exact || codePoint > 0x10ffff) {
      return {
        ok: false,
        at: backslashAt,
        length: end - backslashAt,
        message: `invalid \\${kind} escape sequence`,
      };
    }
    return { ok: true, value: String.fromCodePoint(codePoint), end };
  }
  return {
    ok: false,
    at: backslashAt,
    length: 2,
    message: `unrecognized escape sequence '\\${kind}'; supported: \\" \\' \\\\ \\0 \\a \\b \\e \\f \\n \\r \\t \\v \\uXXXX \\UXXXXXXXX \\xH`,
  };
}

function describeCharacter(codePoint: number): string {
  const hex = `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
  return codePoint >= 0x21 && codePoint <= 0x7e ? `'${String.fromCodePoint(codePoint)}'` : hex;
}

function identifierEnd(source: string, from: number): number {
  let end = from;
  while (isIdentifierPart(source[end] ?? '')) end++;
  return end;
}

function isIdentifierStart(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
}

function isIdentifierPart(c: string): boolean {
  return isIdentifierStart(c) || isDigit(c);
}

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

function isHexDigit(c: string): boolean {
  return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
