import type { CompiledSection } from './compile-section.js';
import { compileSection } from './compile-section.js';
import type { PlaceKind } from './encoding.js';
import type { EvaluationEnvironment } from './evaluator.js';
import { RenderFailure } from './render-failure.js';
import type { SectionOutput } from './render-section.js';
import { createEvaluationEnvironment, renderSection } from './render-section.js';
import type {
  RenderError,
  RenderScope,
  SectionName,
  TemplateCompileContext,
  TemplateError,
} from './types.js';
import type { OriginResult } from './url-assembly.js';
import {
  assembleTargetUrl,
  configurationOrigin,
  joinSections,
  normalizeMaskedUrl,
  withDefaultScheme,
} from './url-assembly.js';

/** The target URL: four compiled sections, compiled once at save or load, rendered per request. */

export interface TargetSections {
  section1: string;
  section2: string;
  section3: string;
  section4?: string;
}

export type TargetRenderResult =
  { ok: true; url: string; maskedUrl: string } | { ok: false; error: RenderError };

export interface CompiledTarget {
  /** Builds the target URL of one request. Never throws for bad data; errors are results. */
  render: (scope: RenderScope) => TargetRenderResult;
  /** Every reference the sections use, in order of appearance, e.g. `#env.backend.url`. */
  references: () => string[];
}

export type TargetCompileResult =
  { ok: true; target: CompiledTarget } | { ok: false; errors: TemplateError[] };

const SECTION_PLACES: ReadonlyArray<readonly [SectionName, PlaceKind]> = [
  ['section1', 'base'],
  ['section2', 'path'],
  ['section3', 'path'],
  ['section4', 'query'],
];

export function compileTarget(
  sections: TargetSections,
  context: TemplateCompileContext,
): TargetCompileResult {
  const errors: TemplateError[] = [];
  const compiled = new Map<SectionName, CompiledSection>();
  for (const [name, placeKind] of SECTION_PLACES) {
    const text = sections[name] ?? '';
    if (name === 'section1' && text.trim() === '') {
      errors.push({
        place: name,
        position: 0,
        length: 0,
        message: 'section 1 (the server name or base URL) is required',
      });
      continue;
    }
    if (text === '') continue;
    const result = compileSection(text, name, placeKind, context);
    if (result.ok) compiled.set(name, result.section);
    else errors.push(...result.errors);
  }
  const section1 = compiled.get('section1');
  if (section1 !== undefined && !section1.hasSpans) {
    const origin = configurationOrigin(sections.section1);
    if (!origin.ok)
      errors.push({
        place: 'section1',
        position: 0,
        length: sections.section1.length,
        message: origin.error.message,
      });
  }
  if (errors.length > 0 || section1 === undefined) return { ok: false, errors };
  const paths = [compiled.get('section2'), compiled.get('section3')].filter(
    (section) => section !== undefined,
  );
  // A '?' typed at the start of section 4 is the separator the URL gets anyway.
  const queryStartsWithSeparator = sections.section4?.startsWith('?') === true;
  return {
    ok: true,
    target: new Target(section1, paths, compiled.get('section4'), queryStartsWithSeparator),
  };
}

class Target implements CompiledTarget {
  private readonly allReferences: readonly string[];
  /** Section 1 rarely changes between requests; its parsed origin is reused while it stays the same. */
  private lastOrigin: { section1: string; result: OriginResult } | undefined;
  /** Sections without a single reference render alike for every request: rendered once, on first use. */
  private readonly literal: boolean;
  private literalResult: TargetRenderResult | undefined;

  constructor(
    private readonly base: CompiledSection,
    private readonly paths: readonly CompiledSection[],
    private readonly query: CompiledSection | undefined,
    private readonly queryStartsWithSeparator: boolean,
  ) {
    const sections = [base, ...paths, ...(query === undefined ? [] : [query])];
    this.allReferences = [...new Set(sections.flatMap((section) => section.references))];
    this.literal = sections.every((section) => !section.hasSpans);
  }

  references(): string[] {
    return [...this.allReferences];
  }

  render(scope: RenderScope): TargetRenderResult {
    if (!this.literal) return this.renderWith(scope);
    return (this.literalResult ??= Object.freeze(this.renderWith(scope)));
  }

  private renderWith(scope: RenderScope): TargetRenderResult {
    const environment = createEvaluationEnvironment(scope);
    let base: SectionOutput;
    const paths: SectionOutput[] = [];
    let query: SectionOutput | undefined;
    try {
      base = renderSection(this.base, environment);
      for (const section of this.paths) paths.push(renderSection(section, environment));
      query = this.query === undefined ? undefined : this.renderQuery(this.query, environment);
    } catch (error) {
      if (error instanceof RenderFailure) return { ok: false, error: error.error };
      throw error;
    }
    const origin = this.originOf(base.text);
    if (!origin.ok) return origin;
    const pathTexts: string[] = [];
    let masked = base.masked !== base.text || (query !== undefined && query.masked !== query.text);
    for (const path of paths) {
      pathTexts.push(path.text);
      if (path.masked !== path.text) masked = true;
    }
    const assembled = assembleTargetUrl(origin, { base: base.text, paths: pathTexts, query: query?.text });
    if (!assembled.ok) return assembled;
    const maskedUrl = masked
      ? normalizeMaskedUrl(
          joinSections(
            withDefaultScheme(base.masked),
            paths.map((path) => path.masked),
            query?.masked,
          ),
        )
      : assembled.url;
    return { ok: true, url: assembled.url, maskedUrl };
  }

  private renderQuery(section: CompiledSection, environment: EvaluationEnvironment): SectionOutput {
    const output = renderSection(section, environment);
    if (!this.queryStartsWithSeparator) return output;
    return { text: output.text.slice(1), masked: output.masked.slice(1) };
  }

  private originOf(section1: string): OriginResult {
    if (this.lastOrigin?.section1 !== section1) {
      this.lastOrigin = { section1, result: configurationOrigin(section1) };
    }
    return this.lastOrigin.result;
  }
}
