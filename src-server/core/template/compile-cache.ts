import type { HeaderCompileResult } from './header-value.js';
import { compileHeaderValue } from './header-value.js';
import type { TargetCompileResult, TargetSections } from './target.js';
import { compileTarget } from './target.js';
import type { TemplateCompileContext } from './types.js';

/**
 * Memoizes compilation by its inputs, for callers that rebuild their route table from configuration:
 * the same sections (or header value) with the same context compile once. Least recently used entries
 * are dropped beyond `maxEntries`.
 */
export interface TemplateCompileCache {
  target: (sections: TargetSections, context: TemplateCompileContext) => TargetCompileResult;
  header: (value: string, index: number, context: TemplateCompileContext) => HeaderCompileResult;
  readonly size: number;
}

export function createTemplateCompileCache(maxEntries = 1000): TemplateCompileCache {
  const entries = new Map<string, TargetCompileResult | HeaderCompileResult>();
  function remember<T extends TargetCompileResult | HeaderCompileResult>(key: string, compile: () => T): T {
    const cached = entries.get(key);
    if (cached !== undefined) {
      entries.delete(key);
      entries.set(key, cached);
      return cached as T;
    }
    const result = compile();
    entries.set(key, result);
    if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    return result;
  }
  return {
    target: (sections, context) =>
      remember(
        JSON.stringify([
          'target',
          sections.section1,
          sections.section2,
          sections.section3,
          sections.section4 ?? '',
          context,
        ]),
        () => compileTarget(sections, context),
      ),
    header: (value, index, context) =>
      remember(JSON.stringify(['header', value, index, context]), () =>
        compileHeaderValue(value, index, context),
      ),
    get size() {
      return entries.size;
    },
  };
}
