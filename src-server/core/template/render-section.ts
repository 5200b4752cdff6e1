import type { CompiledSection, CompiledSpan } from './compile-section.js';
import {
  configurationTextProblem,
  encodePathRemainder,
  pathValueProblem,
  percentEncodeComponent,
  reencodeQueryString,
} from './encoding.js';
import type { EvaluationEnvironment } from './evaluator.js';
import { EvaluationFailure, evaluate } from './evaluator.js';
import type { SpanRendering } from './handlebars-renderer.js';
import { SECRET_MASK } from './limits.js';
import { RenderFailure } from './render-failure.js';
import type { RenderScope } from './types.js';
import type { Value } from './value.js';
import { CONFIGURATION, REQUEST_DATA, textOf } from './value.js';

/** Renders one compiled section through its Handlebars template; throws `RenderFailure`. */

export interface SectionOutput {
  text: string;
  /** The same text with every value a secret contributed to replaced by the mask. */
  masked: string;
}

export function createEvaluationEnvironment(scope: RenderScope): EvaluationEnvironment {
  return new RenderEnvironment(scope);
}

class RenderEnvironment implements EvaluationEnvironment {
  #instant: Date | undefined;

  constructor(readonly scope: RenderScope) {}

  now(): Date {
    return (this.#instant ??= this.scope.now());
  }
}

export function renderSection(section: CompiledSection, environment: EvaluationEnvironment): SectionOutput {
  if (section.constant !== undefined) return section.constant;
  const kept = section.perEnvironment;
  if (kept === undefined) return renderSpans(section, environment);
  const { scope } = environment;
  let same = kept.output !== undefined;
  for (let index = 0; index < kept.references.length; index++) {
    const { variable, member } = kept.references[index]!;
    const value = scope.env(variable, member);
    const previous = kept.values[index];
    if (value?.value !== previous?.value || value?.secret !== previous?.secret) same = false;
    kept.values[index] = value;
  }
  if (same) return kept.output!;
  kept.output = undefined;
  // A failure throws before the output is kept: the next request renders again.
  const output = renderSpans(section, environment);
  kept.output = output;
  return output;
}

function renderSpans(section: CompiledSection, environment: EvaluationEnvironment): SectionOutput {
  const rendering = new SectionRendering(section, environment);
  const text = section.template(rendering);
  if (!rendering.anySecret) return { text, masked: text };
  // The second pass reuses the first pass's span outputs, so clock and GUID values match.
  rendering.masking = true;
  return { text, masked: section.template(rendering) };
}

class SectionRendering implements SpanRendering {
  masking = false;
  anySecret = false;
  private readonly outputs: string[] = [];
  private readonly secret: boolean[] = [];

  constructor(
    private readonly section: CompiledSection,
    private readonly environment: EvaluationEnvironment,
  ) {}

  renderSpan(index: number): string {
    if (this.masking) return this.secret[index] === true ? SECRET_MASK : (this.outputs[index] ?? '');
    const span = this.section.spans[index];
    if (span === undefined) throw new Error(`span ${index} does not exist in ${this.section.place}`);
    const value = this.evaluateSpan(span);
    const output = this.insert(span, value);
    this.outputs[index] = output;
    this.secret[index] = value.secret;
    if (value.secret) this.anySecret = true;
    return output;
  }

  private evaluateSpan(span: CompiledSpan): Value {
    try {
      return evaluate(span.expression, this.environment);
    } catch (error) {
      if (!(error instanceof EvaluationFailure)) throw error;
      throw new RenderFailure({
        kind: error.kind,
        place: this.section.place,
        message: `${span.label}: ${error.message}`,
        ...(error.reference === undefined ? {} : { reference: error.reference }),
      });
    }
  }

  /** The span's text made safe for its place: request data encoded, everything else checked. */
  private insert(span: CompiledSpan, value: Value): string {
    const text = textOf(value.data, span.expression.type);
    const place = this.section.placeKind;
    if (value.taint === REQUEST_DATA && place !== 'header') {
      if (span.insertion === 'query-string') return reencodeQueryString(text);
      if (span.insertion !== 'path-remainder') {
        const problem = place === 'path' ? pathValueProblem(text) : undefined;
        if (problem !== undefined) throw this.failure(span, 'unsafe-value', `the request value ${problem}`);
        return percentEncodeComponent(text);
      }
      const path = encodePathRemainder(text);
      if (path.ok) return path.text;
      throw this.failure(span, 'unsafe-value', `the incoming path ${path.reason}`);
    }
    const problem = configurationTextProblem(text, place);
    if (problem === undefined) return text;
    const fromRequest = value.taint !== CONFIGURATION || place === 'header';
    throw this.failure(span, fromRequest ? 'unsafe-value' : 'invalid-url', `the value ${problem.message}`);
  }

  private failure(span: CompiledSpan, kind: 'unsafe-value' | 'invalid-url', message: string): RenderFailure {
    return new RenderFailure({
      kind,
      place: this.section.place,
      message: `${span.label}: ${message}`,
      ...(span.reference === undefined ? {} : { reference: span.reference }),
    });
  }
}
