import { bindExpression } from '../../../src-server/core/template/binder.js';
import type { BoundExpression } from '../../../src-server/core/template/bound.js';
import { EvaluationFailure, evaluate } from '../../../src-server/core/template/evaluator.js';
import { parseExpression } from '../../../src-server/core/template/parser.js';
import { tokenize } from '../../../src-server/core/template/tokenizer.js';
import type { RenderScope, TemplateCompileContext } from '../../../src-server/core/template/types.js';
import type { Value } from '../../../src-server/core/template/value.js';
import { textOf } from '../../../src-server/core/template/value.js';
import { context as defaultContext, makeScope } from './scope-fixtures.js';

/** Runs one expression through tokenizer, parser, binder and evaluator, as a span's content. */

export type CompileOutcome =
  | { ok: true; expression: BoundExpression }
  | { ok: false; position: number; length: number; message: string };

export function compileExpression(
  source: string,
  context: TemplateCompileContext = defaultContext,
): CompileOutcome {
  const tokens = tokenize(source, 0);
  if (!tokens.ok) return { ok: false, ...tokens.error };
  const parsed = parseExpression(tokens.tokens);
  if (!parsed.ok) return { ok: false, ...parsed.error };
  const bound = bindExpression(parsed.node, context);
  if (!bound.ok) return { ok: false, ...bound.error };
  return { ok: true, expression: bound.expression };
}

export type EvaluationOutcome =
  | { ok: true; text: string; value: Value }
  | { ok: false; stage: 'compile'; position: number; message: string }
  | { ok: false; stage: 'render'; kind: string; message: string };

export function evaluateSource(
  source: string,
  scope: RenderScope = makeScope(),
  context?: TemplateCompileContext,
): EvaluationOutcome {
  const compiled = compileExpression(source, context);
  if (!compiled.ok)
    return { ok: false, stage: 'compile', position: compiled.position, message: compiled.message };
  try {
    const value = evaluate(compiled.expression, { scope, now: () => scope.now() });
    return { ok: true, text: textOf(value.data, compiled.expression.type), value };
  } catch (error) {
    if (error instanceof EvaluationFailure)
      return { ok: false, stage: 'render', kind: error.kind, message: error.message };
    throw error;
  }
}

/** The rendered text, failing the test with the error when there is none. */
export function textOfSource(source: string, scope?: RenderScope): string {
  const outcome = evaluateSource(source, scope);
  if (!outcome.ok) throw new Error(`${source}: ${outcome.stage} error: ${outcome.message}`);
  return outcome.text;
}
