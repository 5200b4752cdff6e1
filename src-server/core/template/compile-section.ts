import { bindExpression } from './binder.js';
import type { BoundExpression } from './bound.js';
import { walkBound } from './bound.js';
import type { PlaceKind } from './encoding.js';
import { configurationTextProblem } from './encoding.js';
import { EvaluationFailure, evaluate } from './evaluator.js';
import type { SectionTemplate, SpanRendering } from './handlebars-renderer.js';
import { compileSectionTemplate } from './handlebars-renderer.js';
import { MAX_TEMPLATE_LENGTH } from './limits.js';
import { parseExpression } from './parser.js';
import type { SpanPart } from './span-scanner.js';
import { scanTemplate } from './span-scanner.js';
import { tokenize } from './tokenizer.js';
import type { EnvValue, RenderScope, TemplateCompileContext, TemplateError, TemplatePlace } from './types.js';
import { textOf } from './value.js';

/**
 * Compiles one section or header value: scan spans, check literal text for its place, tokenize, parse
 * and bind each span, then build the Handlebars template. Collects every error of the text.
 */

/**
 * How a span's request data is inserted: `value` percent-encodes it as one component; a bare
 * `#api.OperationPath` in a path section keeps its own segments, and a bare `#api.QueryParameters` in
 * the query section keeps its own parameters.
 */
export type InsertionMode = 'value' | 'path-remainder' | 'query-string';

export interface CompiledSpan {
  readonly expression: BoundExpression;
  readonly insertion: InsertionMode;
  /** The span as written, for error messages: configuration text, never a rendered value. */
  readonly label: string;
  /** The first reference the span uses, if any. */
  readonly reference: string | undefined;
}

export interface CompiledSection {
  readonly place: TemplatePlace;
  readonly placeKind: PlaceKind;
  readonly spans: readonly CompiledSpan[];
  readonly references: readonly string[];
  readonly hasSpans: boolean;
  readonly template: SectionTemplate;
  /** A section without spans renders the same text every time: rendered once, here. */
  readonly constant: { readonly text: string; readonly masked: string } | undefined;
  /**
   * Set when the spans read configuration only (`#env`, literals): no request data, clock or GUID. Such a section
   * renders the same for the same `#env` values, so its last rendering is kept with them.
   */
  readonly perEnvironment: EnvironmentRendering | undefined;
}

/** The last rendering of a configuration-only section, and the `#env` values it was made from. */
export interface EnvironmentRendering {
  /** Every `#env` reference of the section's spans. */
  readonly references: readonly { readonly variable: string; readonly member: string | undefined }[];
  values: (EnvValue | undefined)[];
  output: { readonly text: string; readonly masked: string } | undefined;
}

export type SectionCompileResult =
  { ok: true; section: CompiledSection } | { ok: false; errors: TemplateError[] };

const MAX_LABEL_LENGTH = 80;

const PLACE_NAMES: Readonly<Record<PlaceKind, string>> = {
  base: 'section 1',
  path: 'a path section',
  query: 'the query section',
  header: 'a header value',
};

export function compileSection(
  text: string,
  place: TemplatePlace,
  placeKind: PlaceKind,
  context: TemplateCompileContext,
): SectionCompileResult {
  const error = (position: number, length: number, message: string): TemplateError => ({
    place,
    position,
    length,
    message,
  });
  if (text.length > MAX_TEMPLATE_LENGTH) {
    return {
      ok: false,
      errors: [
        error(
          MAX_TEMPLATE_LENGTH,
          text.length - MAX_TEMPLATE_LENGTH,
          `longer than ${MAX_TEMPLATE_LENGTH} characters`,
        ),
      ],
    };
  }
  const scanned = scanTemplate(text);
  if (!scanned.ok)
    return {
      ok: false,
      errors: [error(scanned.error.position, scanned.error.length, scanned.error.message)],
    };

  const errors: TemplateError[] = [];
  const spans: CompiledSpan[] = [];
  const references = new Set<string>();
  let configurationOnly = true;
  const envReferences: EnvironmentRendering['references'][number][] = [];
  for (const part of scanned.parts) {
    if (part.kind === 'literal') {
      const problem = configurationTextProblem(part.text, placeKind);
      if (problem !== undefined)
        errors.push(error(part.start + problem.offset, 1, `the text ${problem.message}`));
      continue;
    }
    const compiled = compileSpan(part, placeKind, context);
    if ('message' in compiled) {
      errors.push({ place, ...compiled });
      continue;
    }
    spans.push(compiled.span);
    if (compiled.perRequest) configurationOnly = false;
    walkBound(compiled.span.expression, (node) => {
      if (node.op === 'env') envReferences.push({ variable: node.variable, member: node.member });
    });
    for (const reference of compiled.references) references.add(reference);
  }
  if (errors.length > 0) return { ok: false, errors };
  const template = compileSectionTemplate(scanned.parts);
  const constantText = spans.length === 0 ? template(NO_SPANS) : undefined;
  return {
    ok: true,
    section: {
      place,
      placeKind,
      spans,
      references: [...references],
      hasSpans: spans.length > 0,
      template,
      constant: constantText === undefined ? undefined : { text: constantText, masked: constantText },
      perEnvironment:
        spans.length > 0 && configurationOnly
          ? { references: envReferences, values: [], output: undefined }
          : undefined,
    },
  };
}

const NO_SPANS: SpanRendering = {
  renderSpan: () => {
    throw new Error('this section has no spans');
  },
};

type SpanError = { position: number; length: number; message: string };

function compileSpan(
  part: SpanPart,
  placeKind: PlaceKind,
  context: TemplateCompileContext,
): { span: CompiledSpan; references: string[]; perRequest: boolean } | SpanError {
  const tokens = tokenize(part.source, part.contentStart);
  if (!tokens.ok) return tokens.error;
  const parsed = parseExpression(tokens.tokens);
  if (!parsed.ok) return parsed.error;
  const bound = bindExpression(parsed.node, context);
  if (!bound.ok) return bound.error;
  const expression = bound.expression;
  const whole = { position: part.start, length: part.end - part.start };
  if (expression.type === 'bytes') {
    return { ...whole, message: 'a byte array cannot be inserted; wrap it: Convert.ToBase64String(…)' };
  }

  const references: string[] = [];
  let requestData: BoundExpression | undefined;
  const ops = new Set<BoundExpression['op']>();
  walkBound(expression, (node) => {
    ops.add(node.op);
    if (node.op === 'env' || node.op === 'api') {
      if (!references.includes(node.reference)) references.push(node.reference);
      if (node.op === 'api' && node.field !== 'basePath') requestData ??= node;
    }
  });
  const perRequest = ops.has('api') || ops.has('now') || ops.has('newGuid');
  const constant = !perRequest && !ops.has('env');
  if (placeKind === 'base' && requestData !== undefined) {
    return {
      position: requestData.start,
      length: requestData.end - requestData.start,
      message:
        'section 1 decides the scheme, host and port of the target, so it cannot use request data (#api.OperationPath, #api.QueryParameters); use sections 2 to 4',
    };
  }
  if (constant) {
    const problem = constantProblem(expression, placeKind);
    if (problem !== undefined) return { ...whole, message: problem };
  }

  const label = `{{${part.source}}}`;
  const span: CompiledSpan = {
    expression,
    insertion: insertionOf(expression, placeKind),
    label: label.length > MAX_LABEL_LENGTH ? `${label.slice(0, MAX_LABEL_LENGTH - 1)}…` : label,
    reference: references[0],
  };
  return { span, references, perRequest };
}

function insertionOf(expression: BoundExpression, placeKind: PlaceKind): InsertionMode {
  if (expression.op !== 'api') return 'value';
  if (expression.field === 'operationPath' && placeKind === 'path') return 'path-remainder';
  if (expression.field === 'queryString' && placeKind === 'query') return 'query-string';
  return 'value';
}

const NO_SCOPE: RenderScope = {
  env: () => {
    throw new Error('a constant expression has no references');
  },
  api: { basePath: '', operationPath: '', pathParameters: {}, queryString: '', query: new URLSearchParams() },
  now: () => {
    throw new Error('a constant expression does not read the clock');
  },
  newGuid: () => {
    throw new Error('a constant expression does not create GUIDs');
  },
};

/** A span without references, clock or GUIDs has one value forever: check it now instead of per request. */
function constantProblem(expression: BoundExpression, placeKind: PlaceKind): string | undefined {
  try {
    const value = evaluate(expression, { scope: NO_SCOPE, now: () => NO_SCOPE.now() });
    const problem = configurationTextProblem(textOf(value.data, expression.type), placeKind);
    return problem === undefined ? undefined : `this value ${problem.message} (in ${PLACE_NAMES[placeKind]})`;
  } catch (error) {
    if (error instanceof EvaluationFailure) return `this expression always fails: ${error.message}`;
    throw error;
  }
}
