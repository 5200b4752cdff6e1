import { describe, expect, it } from 'vitest';
import { compileTarget, handlebarsCompilationCount } from '../../../src-server/core/template/index.js';
import { context, makeScope } from './scope-fixtures.js';

/** A sanity check, not a benchmark: rendering never compiles. */
describe('render speed', () => {
  it('compiles each section once at compile time and never while rendering', () => {
    const before = handlebarsCompilationCount();
    const compiled = compileTarget(
      {
        section1: '{{#env.backend.url}}',
        section2: 'api/v2',
        section3: 'orders/{{#api.QueryParameters.id}}',
        section4: 'region={{#env.region}}',
      },
      context,
    );
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.errors));
    expect(handlebarsCompilationCount() - before).toBe(4);
    const scope = makeScope({ queryString: 'id=42' });
    for (let i = 0; i < 2000; i++) {
      const rendered = compiled.target.render(scope);
      if (!rendered.ok) throw new Error(rendered.error.message);
    }
    expect(handlebarsCompilationCount() - before).toBe(4);
    expect(compiled.target.render(scope)).toMatchObject({
      url: 'https://backend.example.com/api/v2/orders/42?region=eu-west',
    });
  });
});
