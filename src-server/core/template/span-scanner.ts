import type { SourceError } from './source-error.js';

/**
 * Splits a template into literal text and `{{ … }}` spans. Every `{{` opens a span; a span ends at the
 * first `}}` outside a string literal and must end on the line it started on.
 */

export interface LiteralPart {
  kind: 'literal';
  text: string;
  start: number;
}

export interface SpanPart {
  kind: 'span';
  /** The text between `{{` and `}}`. */
  source: string;
  /** Offset of `{{`. */
  start: number;
  /** Offset of the first character after `{{`. */
  contentStart: number;
  /** Offset just past `}}`. */
  end: number;
}

export type TemplatePart = LiteralPart | SpanPart;

export type ScanResult = { ok: true; parts: TemplatePart[] } | { ok: false; error: SourceError };

export function scanTemplate(text: string): ScanResult {
  const parts: TemplatePart[] = [];
  let literalStart = 0;
  let open = text.indexOf('{{');
  while (open !== -1) {
    if (open > literalStart) {
      parts.push({ kind: 'literal', text: text.slice(literalStart, open), start: literalStart });
    }
    const close = findSpanEnd(text, open + 2);
    if (typeof close !== 'number') return { ok: false, error: close };
    if (close === -1) {
      return {
        ok: false,
        error: {
          position: open,
          length: 2,
          message: "'{{' is not closed by '}}' on the same line",
        },
      };
    }
    parts.push({
      kind: 'span',
      source: text.slice(open + 2, close),
      start: open,
      contentStart: open + 2,
      end: close + 2,
    });
    literalStart = close + 2;
    open = text.indexOf('{{', literalStart);
  }
  if (literalStart < text.length) {
    parts.push({ kind: 'literal', text: text.slice(literalStart), start: literalStart });
  }
  return { ok: true, parts };
}

/** Offset of the closing `}}`, -1 when the line or text ends first, or an error for an unclosed literal. */
function findSpanEnd(text: string, from: number): number | SourceError {
  let i = from;
  while (i < text.length) {
    const c = text[i];
    if (c === '\n' || c === '\r') return -1;
    if (c === '}' && text[i + 1] === '}') return i;
    if (c === '"' || c === "'") {
      const verbatim = c === '"' && text[i - 1] === '@';
      const after = skipQuoted(text, i, verbatim);
      if (after === -1) {
        return {
          position: i,
          length: 1,
          message: c === '"' ? 'this string literal is not closed' : 'this character literal is not closed',
        };
      }
      i = after;
      continue;
    }
    i++;
  }
  return -1;
}

/** Offset after the quoted literal starting at `quoteAt`, or -1 when it does not close on this line. */
function skipQuoted(text: string, quoteAt: number, verbatim: boolean): number {
  const quote = text[quoteAt];
  let i = quoteAt + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === '\n' || c === '\r') return -1;
    if (verbatim) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          i += 2;
          continue;
        }
        return i + 1;
      }
    } else if (c === '\\') {
      const escaped = text[i + 1];
      if (escaped === '\n' || escaped === '\r') return -1;
      i += 2;
      continue;
    } else if (c === quote) {
      return i + 1;
    }
    i++;
  }
  return -1;
}
