import { describe, expect, it } from 'vitest';
import { compileTarget } from '../../../src-server/core/template/index.js';
import { context, defaultEnv, makeScope } from './scope-fixtures.js';

/** A section that reads only `#env` is rendered again whenever a value it reads differs, never otherwise. */
describe('configuration-only sections', () => {
  const compiled = compileTarget(
    {
      section1: '{{#env.backend.url}}',
      section2: '{{#env.backend.path}}',
      section3: '{{#api.OperationPath.id}}',
    },
    context,
  );
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.errors));
  const { target } = compiled;
  const withEnv = (overrides: Record<string, string | { value: string; secret: boolean }>) =>
    makeScope({ env: { ...defaultEnv, ...overrides }, pathParameters: { id: '7' } });

  it('follows every change of the values it reads, secrets included', () => {
    expect(target.render(withEnv({}))).toMatchObject({ url: 'https://backend.example.com/v2/orders/7' });
    expect(target.render(withEnv({ 'backend.url': 'https://other.example.com' }))).toMatchObject({
      url: 'https://other.example.com/v2/orders/7',
      maskedUrl: 'https://other.example.com/v2/orders/7',
    });
    expect(
      target.render(
        withEnv({ 'backend.url': 'https://other.example.com', 'backend.path': { value: 'x', secret: true } }),
      ),
    ).toMatchObject({
      url: 'https://other.example.com/x/7',
      maskedUrl: 'https://other.example.com/********/7',
    });
    expect(target.render(withEnv({}))).toMatchObject({ url: 'https://backend.example.com/v2/orders/7' });
  });

  it('reports a value that went missing, and renders again once it is back', () => {
    const missing = makeScope({ env: { 'backend.path': 'v2' }, pathParameters: { id: '7' } });
    expect(target.render(missing)).toMatchObject({ ok: false, error: { kind: 'missing-reference' } });
    expect(target.render(withEnv({}))).toMatchObject({ url: 'https://backend.example.com/v2/orders/7' });
  });
});
