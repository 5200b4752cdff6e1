import { describe, expect, it } from 'vitest';
import { compileHeaderValue } from '../../../src-server/core/template/index.js';
import type { ScopeOptions } from './scope-fixtures.js';
import { context, makeScope } from './scope-fixtures.js';

function header(value: string, index = 0) {
  const compiled = compileHeaderValue(value, index, context);
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.errors));
  return compiled.header;
}

function render(value: string, options: ScopeOptions = {}) {
  return header(value).render(makeScope(options));
}

describe('header values', () => {
  it('renders literal text, references and expressions without URL encoding', () => {
    expect(render('plain value with spaces; and=signs & "quotes"')).toMatchObject({
      ok: true,
      value: 'plain value with spaces; and=signs & "quotes"',
    });
    expect(render('v={{#api.QueryParameters.q}}', { queryString: 'q=a%2Fb%20c' })).toMatchObject({
      value: 'v=a/b c',
    });
    expect(render('{{ #api.QueryParameters.lang ?? "en" }}-{{#env.region}}')).toMatchObject({
      value: 'en-eu-west',
    });
  });

  it('builds a Basic authorization header and masks it', () => {
    const rendered = render(
      'Basic {{ Convert.ToBase64String(Encoding.UTF8.GetBytes(#env.backend.user + ":" + #env.backend.password)) }}',
    );
    expect(rendered).toEqual({
      ok: true,
      value: `Basic ${Buffer.from('alice:pa:ss').toString('base64')}`,
      maskedValue: 'Basic ********',
    });
  });

  it('masks an API key placeholder but not the rest', () => {
    expect(render('ApiKey {{#env.backend.apiKey}} for {{#env.backend.user}}')).toEqual({
      ok: true,
      value: 'ApiKey s3cr3t-key for alice',
      maskedValue: 'ApiKey ******** for alice',
    });
  });

  it('refuses CR, LF and NUL in literal text at compile time, with the header place and position', () => {
    for (const [value, position] of [
      ['a\r\nX-Injected: 1', 1],
      ['ab\n', 2],
      ['\0', 0],
    ] as const) {
      const compiled = compileHeaderValue(value, 3, context);
      expect(compiled).toEqual({
        ok: false,
        errors: [{ place: 'header:3', position, length: 1, message: expect.stringMatching(/CR, LF or NUL/) }],
      });
    }
  });

  it('refuses CR, LF and NUL from constant expressions at compile time', () => {
    const compiled = compileHeaderValue('{{ "a\\r\\nb" }}', 1, context);
    expect(compiled).toMatchObject({
      ok: false,
      errors: [{ place: 'header:1', message: expect.stringMatching(/CR, LF or NUL/) }],
    });
  });

  it('refuses CR, LF and NUL in request data at render time', () => {
    for (const raw of ['a%0D%0AX-Injected:%201', 'a%0Ab', 'a%00b']) {
      const rendered = render('v={{#api.QueryParameters.q}}', { queryString: `q=${raw}` });
      expect(rendered).toMatchObject({
        ok: false,
        error: { kind: 'unsafe-value', place: 'header:0', reference: '#api.QueryParameters.q' },
      });
      if (!rendered.ok) expect(rendered.error.message).not.toContain('Injected');
    }
  });

  it('refuses CR/LF in an #env value at render time', () => {
    expect(render('{{#env.region}}', { env: { region: 'a\r\nb' } })).toMatchObject({
      ok: false,
      error: { kind: 'unsafe-value' },
    });
  });

  it('refuses characters HTTP cannot carry in a header', () => {
    expect(compileHeaderValue('tab\tok', 0, context).ok).toBe(true);
    expect(compileHeaderValue('emoji 😀', 0, context).ok).toBe(false);
    expect(render('{{#api.QueryParameters.q}}', { queryString: 'q=%E2%9C%93' })).toMatchObject({ ok: false });
    expect(render('{{#api.QueryParameters.q}}', { queryString: 'q=%C3%A9' })).toMatchObject({
      ok: true,
      value: 'é',
    });
  });

  it('lists its references', () => {
    expect(
      header('{{#env.backend.user}}:{{#env.backend.user}}{{#api.QueryParameters["x-y"]}}').references(),
    ).toEqual(['#env.backend.user', '#api.QueryParameters["x-y"]']);
  });
});
