import { describe, expect, it } from 'vitest';
import {
  createTemplateCompileCache,
  handlebarsCompilationCount,
} from '../../../src-server/core/template/index.js';
import { context } from './scope-fixtures.js';

describe('compile cache', () => {
  it('compiles the same configuration once and evicts the least recently used', () => {
    const cache = createTemplateCompileCache(2);
    const sections = {
      section1: 'https://h.example',
      section2: 'a',
      section3: '{{#api.QueryParameters.id}}',
    };
    const before = handlebarsCompilationCount();
    const first = cache.target(sections, context);
    expect(cache.target({ ...sections }, context)).toBe(first);
    expect(handlebarsCompilationCount() - before).toBe(3);
    expect(cache.target(sections, { ...context, pathParameters: [] })).not.toBe(first);
    cache.header('x', 0, context);
    expect(cache.size).toBe(2);
    expect(cache.target(sections, context)).not.toBe(first);
  });
});
