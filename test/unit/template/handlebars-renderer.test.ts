import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compileSectionTemplate,
  toHandlebarsSource,
} from '../../../src-server/core/template/handlebars-renderer.js';
import type { TemplatePart } from '../../../src-server/core/template/span-scanner.js';
import { scanTemplate } from '../../../src-server/core/template/span-scanner.js';

/** Handlebars renders the sections; literal text must come out exactly as written. */

function renderWithSpans(text: string): string {
  const scanned = scanTemplate(text);
  if (!scanned.ok) throw new Error(scanned.error.message);
  const template = compileSectionTemplate(scanned.parts);
  return template({ renderSpan: (index) => `<${index}>` });
}

function expected(parts: readonly TemplatePart[]): string {
  let spanIndex = 0;
  return parts.map((part) => (part.kind === 'literal' ? part.text : `<${spanIndex++}>`)).join('');
}

describe('Handlebars rendering of literal text', () => {
  it.each([
    ['a\\{{x}}b', 'a\\<0>b'],
    ['a\\\\{{x}}b', 'a\\\\<0>b'],
    ['{{x}}}b', '<0>}b'],
    ['{{x}}}}}', '<0>}}}'],
    ['}}{{x}}}} {{y}}', '}}<0>}} <1>'],
    ['{ {{x}}{a', '{ <0>{a'],
    ['\\', '\\'],
    ['{{x}}  \n  {{y}}  ', '<0>  \n  <1>  '],
    ['"quotes" \'single\' \u2028 \\n {{!}}', '"quotes" \'single\' \u2028 \\n <0>'],
    ['{{else}}{{/if}}', '<0><1>'],
    ['&lt;&amp;<b>', '&lt;&amp;<b>'],
  ])('%j renders as %j', (text, output) => {
    expect(renderWithSpans(text)).toBe(output);
  });

  it('keeps any literal text and span arrangement verbatim (fuzz)', () => {
    const literal = fc.string({
      unit: fc.constantFrom('a', '\\', '}', '{', ' ', '\n', '~', '"', "'", '!', '#', '/', '>', '&', '<'),
      maxLength: 6,
    });
    fc.assert(
      fc.property(fc.array(fc.oneof(literal, fc.constant('{{s}}')), { maxLength: 8 }), (pieces) => {
        const scanned = scanTemplate(pieces.join(''));
        fc.pre(scanned.ok);
        const template = compileSectionTemplate(scanned.parts);
        expect(template({ renderSpan: (index) => `<${index}>` })).toBe(expected(scanned.parts));
      }),
      { numRuns: 2000 },
    );
  });

  it('calls only the span helper, with the span index', () => {
    expect(
      toHandlebarsSource([
        { kind: 'literal', text: 'a\\', start: 0 },
        { kind: 'span', source: 'x', start: 2, contentStart: 4, end: 7 },
        { kind: 'literal', text: '}b', start: 7 },
      ]),
    ).toBe('a\\\\{{span 0~}}}b');
  });
});
