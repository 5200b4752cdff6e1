import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TemplateError } from '../../../src-server/core/template/index.js';
import { compileHeaderValue, compileTarget } from '../../../src-server/core/template/index.js';
import { allOperationsContext, context, makeScope } from './scope-fixtures.js';

/** Arbitrary template text never throws: it compiles, or it gives errors with a place, position and message. */

const PIECES = [
  '{{',
  '}}',
  '{{{',
  '}}}',
  '#env.',
  '#api.',
  'backend',
  '.url',
  '.apiKey',
  'region',
  'QueryParameters',
  'OperationPath',
  '.id',
  'BasePath',
  '"',
  "'",
  '@"',
  '\\',
  '(',
  ')',
  '+',
  '?',
  ':',
  '??',
  ' ',
  '\n',
  '\r',
  '\0',
  'DateTime.UtcNow',
  '.ToString("yyyy")',
  '.ToString(',
  'Guid.NewGuid()',
  '[',
  ']',
  '["page-size"]',
  '-',
  '!',
  '==',
  '&&',
  '1',
  '2147483648',
  '..',
  '/',
  '%2e',
  'https://',
  'h.example',
  '.Substring(1)',
  '.constructor',
  '__proto__',
  '#if',
  '/if',
];

const templateText = fc.oneof(
  fc
    .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ unit: 'binary', maxLength: 4 })), {
      maxLength: 24,
    })
    .map((parts) => parts.join('')),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

const requestScope = fc
  .record({
    operationPath: fc.string({ unit: 'binary', maxLength: 16 }),
    queryString: fc.string({ unit: 'binary', maxLength: 16 }),
    id: fc.string({ unit: 'binary', maxLength: 8 }),
  })
  .map(({ operationPath, queryString, id }) =>
    makeScope({ operationPath, queryString, pathParameters: { id } }),
  );

function expectWellFormed(errors: readonly TemplateError[], texts: Readonly<Record<string, string>>): void {
  expect(errors.length).toBeGreaterThan(0);
  for (const error of errors) {
    const text = texts[error.place] ?? '';
    expect(error.position).toBeGreaterThanOrEqual(0);
    expect(error.position).toBeLessThanOrEqual(text.length);
    expect(error.message.length).toBeGreaterThan(0);
  }
}

describe('fuzzing template text', () => {
  it('target sections compile or report errors, and render without throwing', () => {
    fc.assert(
      fc.property(
        fc.oneof(templateText, fc.constant('https://h.example')),
        templateText,
        templateText,
        templateText,
        fc.boolean(),
        requestScope,
        (section1, section2, section3, section4, allOperations, scope) => {
          const sections = { section1, section2, section3, section4 };
          const compiled = compileTarget(sections, allOperations ? allOperationsContext : context);
          if (!compiled.ok) {
            expectWellFormed(compiled.errors, sections);
            return;
          }
          const rendered = compiled.target.render(scope);
          if (rendered.ok) {
            expect(() => new URL(rendered.url)).not.toThrow();
            expect(rendered.url).not.toMatch(/[\r\n\0#]/);
          } else {
            expect(rendered.error.message.length).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('header values compile or report errors, and never render CR, LF or NUL', () => {
    fc.assert(
      fc.property(templateText, fc.nat(20), requestScope, (value, index, scope) => {
        const compiled = compileHeaderValue(value, index, context);
        if (!compiled.ok) {
          expectWellFormed(compiled.errors, { [`header:${index}`]: value });
          return;
        }
        const rendered = compiled.header.render(scope);
        if (rendered.ok) expect(rendered.value).not.toMatch(/[\r\n\0]/);
      }),
      { numRuns: 3000 },
    );
  });
});
