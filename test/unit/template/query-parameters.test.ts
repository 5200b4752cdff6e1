import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileHeaderValue } from '../../../src-server/core/template/index.js';
import { context, makeScope } from './scope-fixtures.js';

/** `#api.QueryParameters.<name>` reads any query string as URLSearchParams does (exact name first, then caseless). */
function expected(queryString: string, name: string): string {
  const query = new URLSearchParams(queryString);
  const exact = query.get(name);
  if (exact !== null) return exact;
  for (const [key, value] of query) if (key.toLowerCase() === name.toLowerCase()) return value;
  return '';
}

describe('query parameters', () => {
  const compiled = compileHeaderValue('{{#api.QueryParameters.aB ?? ""}}', 0, context);
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.errors));
  const header = compiled.header;

  it('match URLSearchParams for any query string', () => {
    const piece = fc.constantFrom(
      'aB',
      'ab',
      'AB',
      'a',
      '=',
      '&',
      '?',
      '+',
      '%41',
      '%',
      'x',
      '1',
      ' ',
      'é',
      '%zz',
      '#',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const queryString = pieces.join('');
        const rendered = header.render(makeScope({ queryString }));
        if (!rendered.ok) return; // a value HTTP cannot carry: refused either way
        expect(rendered.value).toBe(expected(queryString, 'aB'));
      }),
      { numRuns: 3000 },
    );
  });
});
