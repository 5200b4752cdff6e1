import type { CompiledSection } from './compile-section.js';
import { compileSection } from './compile-section.js';
import { MAX_HEADER_VALUE_LENGTH } from './limits.js';
import { RenderFailure } from './render-failure.js';
import { createEvaluationEnvironment, renderSection } from './render-section.js';
import type { RenderError, RenderScope, TemplateCompileContext, TemplateError } from './types.js';

/** The `Value` of a header entry (`Add` / `Overwrite`): the same language as the URL sections. */

export type HeaderRenderResult =
  { ok: true; value: string; maskedValue: string } | { ok: false; error: RenderError };

export interface CompiledHeaderValue {
  /** The header value for one request; CR, LF, NUL and other characters HTTP forbids are refused. */
  render: (scope: RenderScope) => HeaderRenderResult;
  references: () => string[];
}

export type HeaderCompileResult =
  { ok: true; header: CompiledHeaderValue } | { ok: false; errors: TemplateError[] };

/** `index` is the header entry's position in the configuration; errors name the place `header:<index>`. */
export function compileHeaderValue(
  value: string,
  index: number,
  context: TemplateCompileContext,
): HeaderCompileResult {
  const result = compileSection(value, `header:${index}`, 'header', context);
  return result.ok ? { ok: true, header: new HeaderValue(result.section) } : result;
}

class HeaderValue implements CompiledHeaderValue {
  constructor(private readonly section: CompiledSection) {}

  references(): string[] {
    return [...this.section.references];
  }

  render(scope: RenderScope): HeaderRenderResult {
    try {
      const output = renderSection(this.section, createEvaluationEnvironment(scope));
      if (output.text.length > MAX_HEADER_VALUE_LENGTH) {
        return {
          ok: false,
          error: {
            kind: 'unsafe-value',
            place: this.section.place,
            message: `the header value would be longer than ${MAX_HEADER_VALUE_LENGTH} characters`,
          },
        };
      }
      return { ok: true, value: output.text, maskedValue: output.masked };
    } catch (error) {
      if (error instanceof RenderFailure) return { ok: false, error: error.error };
      throw error;
    }
  }
}
