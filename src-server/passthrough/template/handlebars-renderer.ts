import Handlebars from 'handlebars';
import type { TemplatePart } from './span-scanner.js';

/**
 * Handlebars renders every section: literal text is the template's own content, and each `{{ … }}`
 * span becomes a call of the one registered helper, `{{span N}}`, which evaluates the compiled
 * expression N. The template is compiled with `knownHelpersOnly`, `strict` and `noEscape`, so it can do
 * nothing but emit its text and call that helper.
 *
 * Literal text reaches Handlebars verbatim, with two adjustments for its lexer: a `\` right before a
 * span would escape the span, so it is doubled (Handlebars strips one); and `}` right after a span
 * would read as `}}}`, so that span closes with `~}}` (which strips nothing, since `}` is not white space).
 */

export interface SpanRendering {
  renderSpan(index: number): string;
}

export type SectionTemplate = (rendering: SpanRendering) => string;

const SPAN_HELPER = 'span';
const engine = Handlebars.create();
let compilations = 0;

engine.registerHelper(
  SPAN_HELPER,
  function renderSpanHelper(index: unknown, options: Handlebars.HelperOptions) {
    const rendering = (options.data as { root: SpanRendering }).root;
    return rendering.renderSpan(index as number);
  },
);

const DRY_RUN: SpanRendering = { renderSpan: () => '' };

export function compileSectionTemplate(parts: readonly TemplatePart[]): SectionTemplate {
  const template = engine.compile<SpanRendering>(toHandlebarsSource(parts), {
    knownHelpers: { [SPAN_HELPER]: true },
    knownHelpersOnly: true,
    strict: true,
    noEscape: true,
    data: true,
  });
  compilations++;
  // Handlebars compiles on the first call; make that happen now, at save time, not on the first request.
  template(DRY_RUN);
  return template;
}

export function toHandlebarsSource(parts: readonly TemplatePart[]): string {
  let source = '';
  let spanIndex = 0;
  for (const [index, part] of parts.entries()) {
    const next = parts[index + 1];
    if (part.kind === 'literal') {
      source += next?.kind === 'span' && part.text.endsWith('\\') ? `${part.text}\\` : part.text;
    } else {
      const close = next?.kind === 'literal' && next.text.startsWith('}') ? '~}}' : '}}';
      source += `{{${SPAN_HELPER} ${spanIndex}${close}`;
      spanIndex++;
    }
  }
  return source;
}

/** How many Handlebars templates this process has compiled; rendering must never add to it. */
export function handlebarsCompilationCount(): number {
  return compilations;
}
