import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { SEARCH_DOCUMENT_SQL } from '../../../src-server/core/storage/migrations/0010-audit-search-batched.js';
import { searchDocumentOf } from '../../../src-server/core/audit/sql/search-document.js';

/** SQLite's document of a stored entry's JSON: what the writers inserted before an import's reader built it. */
const sqlite = new Database(':memory:');
const fromSqlite = sqlite.prepare<[string], { document: string | null }>(
  `select ${SEARCH_DOCUMENT_SQL} as document from (select ? as entry)`,
);
afterAll(() => sqlite.close());

function sqliteDocument(parameters: unknown): string | null {
  return fromSqlite.get(JSON.stringify({ actionName: 'A', parameters, resources: [] }))!.document;
}

describe('searchDocumentOf', () => {
  it.each([
    [
      'strings, booleans, nulls and integers at any depth',
      { a: true, b: false, c: null, d: [1, 'x', [2, { e: 'f' }]], g: -0, h: -12 },
    ],
    [
      'keys in the order the JSON text holds them (integer-like keys first)',
      { b: 'second', 2: 'two', a: 'third', 1: 'one' },
    ],
    ['empty strings, spaces and punctuation', { empty: '', spaced: '  two  words ', punctuation: 'a.b-c/d' }],
    ['escaped characters', { text: 'quote " backslash \\ tab \t newline \n control \u0001 é 日本 🙂' }],
    ['no atom at all', { list: [], object: {}, nothing: null }],
    ['an empty object', {}],
    [
      'undefined values, which JSON leaves out (in arrays: null)',
      { kept: 'yes', gone: undefined, list: [undefined, 'z'] },
    ],
    ['the largest safe integers', { big: Number.MAX_SAFE_INTEGER, small: Number.MIN_SAFE_INTEGER }],
  ])('builds the document SQLite builds: %s', (_name, parameters) => {
    const document = searchDocumentOf(parameters);
    expect(document).not.toBeUndefined();
    expect(document).toBe(sqliteDocument(parameters));
  });

  it.each([
    ['a fraction (SQLite prints reals its own way)', { ratio: 0.1 }],
    ['an integer beyond the safe ones', { big: 2 ** 60 }],
    ['a number JavaScript writes with an exponent', { huge: 1e21 }],
    ['a NUL character', { text: 'a\u0000b' }],
    ['a lone surrogate', { text: 'a\uD800b' }],
    ['a value with its own JSON form', { when: new Date(0) }],
  ])('leaves the document to SQLite for %s', (_name, parameters) => {
    expect(searchDocumentOf(parameters)).toBeUndefined();
  });

  it('differs from SQLite on those values where it would have guessed', () => {
    // The reason to leave them: the tokens would not be the same.
    expect(sqliteDocument({ huge: 1e21 })).toBe('1.0e+21');
    expect(sqliteDocument({ tiny: 1.5e-7 })).toBe('1.5e-07');
  });
});
