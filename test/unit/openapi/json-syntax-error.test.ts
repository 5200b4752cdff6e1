import { describe, expect, it } from 'vitest';
import {
  lineAndColumn,
  locateJsonSyntaxError,
} from '../../../src-server/control/apis/openapi/json-syntax-error.js';
import { parseApiDefinition } from '../../../src-server/control/apis/openapi/index.js';

describe('locateJsonSyntaxError', () => {
  it.each([
    ['{"a": 1', 7, 'unexpected end of the document'],
    ['{"a": "b', 6, 'unterminated string'],
    ['{"a": "b\nc"}', 8, 'control character inside a string'],
    ['{"a": "\\x"}', 7, 'invalid escape "\\\\x"'],
    ['{"a": "\\u12"}', 7, 'invalid \\u escape'],
    ['{"a": 01}', 6, 'invalid number'],
    ['{"a": 1.}', 6, 'invalid number'],
    ['{"a": -}', 6, 'invalid number'],
    ['{"a": tru}', 6, 'unexpected "t", expected a value'],
    ['{"a" 1}', 5, "expected ':' after the property name"],
    ["{'a': 1}", 1, 'expected a property name in double quotes'],
    ['[1, 2,]', 6, 'unexpected "]", expected a value'],
    ['[1 2]', 3, "expected ',' or ']'"],
    ['{} {}', 3, 'after the end of the JSON value'],
    ['', 0, 'unexpected end of the document'],
  ])('%j fails at %i: %s', (text, offset, message) => {
    expect(() => JSON.parse(text) as unknown).toThrow(SyntaxError);
    const located = locateJsonSyntaxError(text);
    expect(located?.offset).toBe(offset);
    expect(located?.message).toContain(message);
  });

  it('finds nothing wrong in valid JSON, however deep', () => {
    expect(locateJsonSyntaxError('{"a": [1, -2.5e+3, true, false, null, "\\u00e9\\n", {}]}')).toBeUndefined();
    expect(locateJsonSyntaxError(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)).toBeUndefined();
  });

  it('lineAndColumn is 1-based and counts \\n', () => {
    expect(lineAndColumn('ab\ncd\r\nef', 0)).toEqual({ line: 1, column: 1 });
    expect(lineAndColumn('ab\ncd\r\nef', 4)).toEqual({ line: 2, column: 2 });
    expect(lineAndColumn('ab\ncd\r\nef', 7)).toEqual({ line: 3, column: 1 });
  });
});

describe('input type', () => {
  it('refuses input that is neither a Buffer nor a string (JavaScript callers)', () => {
    const result = parseApiDefinition(42 as unknown as string);
    expect(result).toEqual({
      ok: false,
      errors: [{ pointer: '', message: 'the document must be given as a Buffer or a string, not number' }],
      warnings: [],
    });
  });
});
