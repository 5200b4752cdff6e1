/**
 * Finds the first syntax error of a JSON text, with a readable message. Only called after
 * `JSON.parse` failed: V8's messages and positions differ between Node versions (Node 20 has no
 * line/column, some messages have no position at all), so the location is computed here instead.
 * Iterative, so deeply nested input cannot overflow the stack.
 */

export interface JsonSyntaxError {
  offset: number;
  message: string;
}

type Expectation = 'value' | 'valueOrArrayEnd' | 'keyOrObjectEnd' | 'key' | 'colon' | 'afterValue';

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPABLE = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const HEX4 = /^[0-9a-fA-F]{4}$/;

export function locateJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const containers: Array<'object' | 'array'> = [];
  let expectation: Expectation = 'value';
  let index = 0;
  for (;;) {
    index = skipWhitespace(text, index);
    if (index >= text.length) {
      if (expectation === 'afterValue' && containers.length === 0) return undefined;
      return { offset: text.length, message: 'unexpected end of the document' };
    }
    const char = text.charAt(index);
    switch (expectation) {
      case 'valueOrArrayEnd':
      case 'value': {
        if (expectation === 'valueOrArrayEnd' && char === ']') {
          containers.pop();
          index += 1;
          expectation = 'afterValue';
          break;
        }
        if (char === '{' || char === '[') {
          containers.push(char === '{' ? 'object' : 'array');
          index += 1;
          expectation = char === '{' ? 'keyOrObjectEnd' : 'valueOrArrayEnd';
          break;
        }
        const end = scanScalar(text, index);
        if (typeof end !== 'number') return end;
        index = end;
        expectation = 'afterValue';
        break;
      }
      case 'keyOrObjectEnd':
      case 'key': {
        if (expectation === 'keyOrObjectEnd' && char === '}') {
          containers.pop();
          index += 1;
          expectation = 'afterValue';
          break;
        }
        if (char !== '"') {
          return {
            offset: index,
            message: `expected a property name in double quotes, found ${describe(char)}`,
          };
        }
        const end = scanString(text, index);
        if (typeof end !== 'number') return end;
        index = end;
        expectation = 'colon';
        break;
      }
      case 'colon':
        if (char !== ':')
          return { offset: index, message: `expected ':' after the property name, found ${describe(char)}` };
        index += 1;
        expectation = 'value';
        break;
      case 'afterValue': {
        const container = containers.at(-1);
        if (container === undefined) {
          return { offset: index, message: `unexpected ${describe(char)} after the end of the JSON value` };
        }
        const closer = container === 'object' ? '}' : ']';
        if (char === ',') {
          index += 1;
          expectation = container === 'object' ? 'key' : 'value';
        } else if (char === closer) {
          containers.pop();
          index += 1;
        } else {
          return { offset: index, message: `expected ',' or '${closer}', found ${describe(char)}` };
        }
        break;
      }
    }
  }
}

function scanScalar(text: string, index: number): number | JsonSyntaxError {
  const char = text.charAt(index);
  if (char === '"') return scanString(text, index);
  if (char === '-' || (char >= '0' && char <= '9')) {
    NUMBER.lastIndex = index;
    const match = NUMBER.exec(text);
    const end = match ? index + match[0].length : index;
    if (end === index || /[0-9.eE+-]/.test(text.charAt(end)))
      return { offset: index, message: 'invalid number' };
    return end;
  }
  for (const literal of ['true', 'false', 'null']) {
    if (text.startsWith(literal, index)) return index + literal.length;
  }
  return { offset: index, message: `unexpected ${describe(char)}, expected a value` };
}

function scanString(text: string, start: number): number | JsonSyntaxError {
  let index = start + 1;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (code === 0x22) return index + 1;
    if (code < 0x20) {
      return {
        offset: index,
        message: 'control character inside a string (line breaks and tabs must be escaped)',
      };
    }
    if (code === 0x5c) {
      const escaped = text.charAt(index + 1);
      if (escaped === 'u') {
        if (!HEX4.test(text.slice(index + 2, index + 6)))
          return { offset: index, message: 'invalid \\u escape' };
        index += 6;
        continue;
      }
      if (!ESCAPABLE.has(escaped))
        return { offset: index, message: `invalid escape ${describe(`\\${escaped}`)}` };
      index += 2;
      continue;
    }
    index += 1;
  }
  return { offset: start, message: 'unterminated string' };
}

function skipWhitespace(text: string, index: number): number {
  let position = index;
  for (;;) {
    const code = text.charCodeAt(position);
    if (code !== 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) return position;
    position += 1;
  }
}

function describe(char: string): string {
  return JSON.stringify(char);
}

/** 1-based line and column of a character offset; lines end at `\n`. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let index = text.indexOf('\n'); index !== -1 && index < end; index = text.indexOf('\n', index + 1)) {
    line += 1;
    lineStart = index + 1;
  }
  return { line, column: end - lineStart + 1 };
}
