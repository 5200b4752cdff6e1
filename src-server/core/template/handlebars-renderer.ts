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
  renderSpan: (index: number) => string;
}

export type SectionTemplate = (rendering: SpanRendering) => string;

const SPAN_HELPER = 'span';
let compilations = 0;

/** Handlebars calls a helper with the template's context as `this`: here, the section being rendered. */
function renderSpanHelper(this: SpanRendering, index: unknown): string {
  return this.renderSpan(index as number);
}

let engine: typeof Handlebars | undefined;

/**
 * Made at the first compilation, so that a start with no template to compile never touches Handlebars: the built
 * CLI loads it at that first call (scripts/build-server.mjs).
 */
function handlebarsEngine(): typeof Handlebars {
  if (engine) return engine;
  engine = Handlebars.create();
  // The built-in helpers (`if`, `each`, …) can never be called here (`knownHelpersOnly`); only `span` stays.
  for (const name of Object.keys(engine.helpers)) engine.unregisterHelper(name);
  engine.registerHelper(SPAN_HELPER, renderSpanHelper);
  return engine;
}

/**
 * How every render calls its template. A top-level call makes Handlebars set its environment up again each time
 * (a new closure around every helper, new prototype-access rules), which costs more than the rendering itself.
 * Handlebars' partial calls take that environment ready-made instead, and so do ours: the one helper, no
 * partials or decorators, and prototype access denied as Handlebars' defaults deny it (these templates look no
 * property up anyway). The renderer's tests hold Handlebars to this.
 */
const RUN_OPTIONS: Handlebars.RuntimeOptions & { hooks: object; protoAccessControl: object } = Object.freeze({
  partial: true,
  helpers: { [SPAN_HELPER]: renderSpanHelper },
  partials: {},
  decorators: {},
  hooks: {},
  protoAccessControl: {
    properties: { whitelist: denied(['__proto__']), defaultValue: undefined },
    methods: {
      whitelist: denied([
        'constructor',
        '__defineGetter__',
        '__defineSetter__',
        '__lookupGetter__',
        '__lookupSetter__',
      ]),
      defaultValue: undefined,
    },
  },
});

function denied(names: readonly string[]): Record<string, boolean> {
  const list = Object.create(null) as Record<string, boolean>;
  for (const name of names) list[name] = false;
  return list;
}

const DRY_RUN: SpanRendering = { renderSpan: () => '' };

export function compileSectionTemplate(parts: readonly TemplatePart[]): SectionTemplate {
  const template = handlebarsEngine().compile<SpanRendering>(toHandlebarsSource(parts), {
    knownHelpers: { [SPAN_HELPER]: true },
    knownHelpersOnly: true,
    strict: true,
    noEscape: true,
    data: false,
  });
  compilations++;
  const render: SectionTemplate = (rendering) => template(rendering, RUN_OPTIONS);
  // Handlebars compiles on the first call; make that happen now, at save time, not on the first request.
  render(DRY_RUN);
  return render;
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
