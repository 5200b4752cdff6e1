import { describe, expect, it } from 'vitest';
import { compileTarget } from '../../../src-server/core/template/index.js';
import { context, makeScope } from './scope-fixtures.js';

describe('the worked example of the seed', () => {
  it('forwards /orders/lookup?id=42 to https://backend.example.com/api/v2/42', () => {
    const compiled = compileTarget(
      {
        section1: '{{#env.backend.url}}',
        section2: 'api/v2',
        section3: '{{#api.QueryParameters.id}}',
        section4: '',
      },
      context,
    );
    expect(compiled.ok).toBe(true);
    if (!compiled.ok) return;
    const rendered = compiled.target.render(
      makeScope({ basePath: '/orders', operationPath: '/lookup', queryString: 'id=42' }),
    );
    expect(rendered).toEqual({
      ok: true,
      url: 'https://backend.example.com/api/v2/42',
      maskedUrl: 'https://backend.example.com/api/v2/42',
    });
    expect(compiled.target.references()).toEqual(['#env.backend.url', '#api.QueryParameters.id']);
  });
});
