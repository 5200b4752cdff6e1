import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileTarget } from '../../../src-server/core/template/index.js';
import { compileExpression, evaluateSource } from './pipeline.js';
import { context, makeScope } from './scope-fixtures.js';

/** Expressions built from the grammar evaluate to a value or a typed failure, never a JavaScript error. */

const TEXT_REFERENCES = [
  '#api.QueryParameters.id',
  '#api.QueryParameters',
  '#api.QueryParameters["page-size"]',
  '#api.OperationPath',
  '#api.OperationPath.id',
  '#api.BasePath',
  '#env.backend.url',
  '#env.backend.apiKey',
  '#env.region',
  '#api.QueryParameters.absent',
];
const DATE_FORMATS = [
  '"yyyy-MM-dd"',
  '"o"',
  '"s"',
  '"u"',
  '"HH:mm:ss.fff tt"',
  '"%d"',
  '@"yyyy\\MM"',
  '#api.QueryParameters.fmt',
];
const GUID_FORMATS = ['"N"', '"D"', '"B"', '"P"', '""'];

const { text, integer, bool } = fc.letrec<{ text: string; integer: string; bool: string }>((tie) => ({
  text: fc.oneof(
    { depthSize: 'small', maxDepth: 5 },
    fc.string({ unit: 'binary', maxLength: 6 }).map((value) => JSON.stringify(value)),
    fc.constantFrom(...TEXT_REFERENCES),
    fc
      .tuple(tie('text'), fc.constantFrom('ToUpper', 'ToLower', 'Trim'))
      .map(([target, method]) => `(${target}).${method}()`),
    fc.tuple(tie('text'), tie('integer')).map(([target, start]) => `(${target}).Substring(${start})`),
    fc
      .tuple(tie('text'), tie('integer'), tie('integer'))
      .map(([target, start, length]) => `(${target}).Substring(${start}, ${length})`),
    fc
      .tuple(tie('text'), tie('text'), tie('text'))
      .map(([target, from, to]) => `(${target}).Replace(${from}, ${to})`),
    fc.tuple(tie('text'), tie('text')).map(([a, b]) => `(${a} + ${b})`),
    fc.tuple(tie('text'), tie('integer')).map(([a, b]) => `(${a} + ${b})`),
    fc.tuple(tie('text'), tie('text')).map(([a, b]) => `(${a} ?? ${b})`),
    fc.tuple(tie('bool'), tie('text'), tie('text')).map(([test, a, b]) => `(${test} ? ${a} : ${b})`),
    tie('text').map((value) => `Uri.EscapeDataString(${value})`),
    tie('text').map((value) => `Convert.ToBase64String(Encoding.UTF8.GetBytes(${value}))`),
    fc
      .tuple(
        fc.constantFrom('UtcNow', 'Now'),
        fc.constantFrom('AddDays', 'AddHours', 'AddMinutes'),
        tie('integer'),
        fc.constantFrom(...DATE_FORMATS),
      )
      .map(([now, add, amount, format]) => `DateTime.${now}.${add}(${amount}).ToString(${format})`),
    fc.constantFrom(...GUID_FORMATS).map((format) => `Guid.NewGuid().ToString(${format})`),
    tie('integer').map((value) => `(${value}).ToString()`),
    tie('bool').map((value) => `(${value}).ToString()`),
  ),
  integer: fc.oneof(
    { depthSize: 'small', maxDepth: 5 },
    fc.integer().map((value) => `(${value})`),
    tie('text').map((value) => `(${value}).Length`),
    fc.tuple(tie('integer'), tie('integer')).map(([a, b]) => `(${a} + ${b})`),
    tie('integer').map((value) => `-(${value})`),
  ),
  bool: fc.oneof(
    { depthSize: 'small', maxDepth: 5 },
    fc.constantFrom('true', 'false'),
    fc.tuple(tie('text'), fc.constantFrom('==', '!='), tie('text')).map(([a, op, b]) => `(${a} ${op} ${b})`),
    fc
      .tuple(tie('integer'), fc.constantFrom('<', '>', '<=', '>=', '==', '!='), tie('integer'))
      .map(([a, op, b]) => `(${a} ${op} ${b})`),
    fc
      .tuple(tie('text'), fc.constantFrom('Contains', 'StartsWith', 'EndsWith'), tie('text'))
      .map(([a, method, b]) => `(${a}).${method}(${b})`),
    tie('text').map((value) => `string.IsNullOrEmpty(${value})`),
    tie('bool').map((value) => `!(${value})`),
    fc.tuple(tie('bool'), fc.constantFrom('&&', '||'), tie('bool')).map(([a, op, b]) => `(${a} ${op} ${b})`),
  ),
}));

const scope = fc
  .record({
    id: fc.string({ unit: 'binary', maxLength: 6 }),
    fmt: fc.string({ maxLength: 4 }),
    present: fc.boolean(),
  })
  .map(({ id, fmt, present }) =>
    makeScope({
      queryString: present ? new URLSearchParams({ id, fmt, 'page-size': id }).toString() : '',
      operationPath: `/x/${id}`,
      pathParameters: { id },
    }),
  );

describe('fuzzing expressions of the grammar', () => {
  it('compile, then evaluate to a value or a typed failure', () => {
    fc.assert(
      fc.property(fc.oneof(text, integer, bool), scope, (source, requestScope) => {
        const compiled = compileExpression(source);
        if (!compiled.ok) {
          expect(compiled.message).toMatch(/nested too deeply/);
          return;
        }
        const outcome = evaluateSource(source, requestScope);
        if (!outcome.ok) expect(outcome.stage).toBe('render');
      }),
      { numRuns: 3000 },
    );
  });

  it('render inside every section without throwing and keep the origin', () => {
    fc.assert(
      fc.property(text, scope, (source, requestScope) => {
        const compiled = compileTarget(
          {
            section1: 'https://h.example',
            section2: 'a',
            section3: `{{ ${source} }}`,
            section4: `q={{ ${source} }}`,
          },
          context,
        );
        if (!compiled.ok) return;
        const rendered = compiled.target.render(requestScope);
        if (rendered.ok) expect(new URL(rendered.url).origin).toBe('https://h.example');
      }),
      { numRuns: 2000 },
    );
  });
});
