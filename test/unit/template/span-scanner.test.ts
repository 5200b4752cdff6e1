import { describe, expect, it } from 'vitest';
import { scanTemplate } from '../../../src-server/core/template/span-scanner.js';

describe('span scanner', () => {
  it('splits literal text and spans with their offsets', () => {
    expect(scanTemplate('a{{ x }}b{{y}}')).toEqual({
      ok: true,
      parts: [
        { kind: 'literal', text: 'a', start: 0 },
        { kind: 'span', source: ' x ', start: 1, contentStart: 3, end: 8 },
        { kind: 'literal', text: 'b', start: 8 },
        { kind: 'span', source: 'y', start: 9, contentStart: 11, end: 14 },
      ],
    });
  });

  it('leaves a lone }} in literal text alone', () => {
    expect(scanTemplate('a}}b')).toEqual({ ok: true, parts: [{ kind: 'literal', text: 'a}}b', start: 0 }] });
  });

  it('does not end a span at }} inside a string literal', () => {
    const scanned = scanTemplate('{{ "a}}b" + @"c""}}" + \'}\' }}!');
    expect(scanned.ok && scanned.parts.map((part) => part.kind)).toEqual(['span', 'literal']);
    expect(scanned.ok && scanned.parts[0]?.kind === 'span' && scanned.parts[0].source).toBe(
      ' "a}}b" + @"c""}}" + \'}\' ',
    );
  });

  it.each([
    ['a{{ x', 1, /not closed by '}}'/],
    ['{{ x\n}}', 0, /on the same line/],
    ['{{ "abc }}', 3, /string literal is not closed/],
    ['{{ "a\\\n" }}', 3, /string literal is not closed/],
    ["{{ 'a }}", 3, /character literal is not closed/],
  ])('refuses %j at %i', (text, position, message) => {
    const scanned = scanTemplate(text);
    expect(scanned.ok).toBe(false);
    if (scanned.ok) return;
    expect(scanned.error.position).toBe(position);
    expect(scanned.error.message).toMatch(message);
  });
});
