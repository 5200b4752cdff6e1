import { describe, expect, it } from 'vitest';
import type { TargetSections, TemplateCompileContext } from '../../../src-server/core/template/index.js';
import { compileTarget } from '../../../src-server/core/template/index.js';
import type { ScopeOptions } from './scope-fixtures.js';
import { allOperationsContext, context, makeScope } from './scope-fixtures.js';

function target(sections: Partial<TargetSections>, compileContext: TemplateCompileContext = context) {
  const compiled = compileTarget({ section1: '', section2: '', section3: '', ...sections }, compileContext);
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.errors));
  return compiled.target;
}

function url(
  sections: Partial<TargetSections>,
  options: ScopeOptions = {},
  compileContext?: TemplateCompileContext,
): string {
  const rendered = target(sections, compileContext).render(makeScope(options));
  if (!rendered.ok) throw new Error(JSON.stringify(rendered.error));
  return rendered.url;
}

function renderError(
  sections: Partial<TargetSections>,
  options: ScopeOptions = {},
  compileContext?: TemplateCompileContext,
) {
  const rendered = target(sections, compileContext).render(makeScope(options));
  if (rendered.ok) throw new Error(`expected an error, got ${rendered.url}`);
  return rendered.error;
}

function compileErrors(sections: Partial<TargetSections>, compileContext: TemplateCompileContext = context) {
  const compiled = compileTarget({ section1: '', section2: '', section3: '', ...sections }, compileContext);
  if (compiled.ok) throw new Error('expected compile errors');
  return compiled.errors;
}

describe('URL assembly', () => {
  it.each([
    [{ section1: 'backend.example.com' }, 'https://backend.example.com/'],
    [{ section1: 'http://backend.example.com:8080' }, 'http://backend.example.com:8080/'],
    [{ section1: 'backend.example.com:8443', section2: 'api' }, 'https://backend.example.com:8443/api'],
    [{ section1: 'https://h.example/', section2: '/api/', section3: '/v2' }, 'https://h.example/api/v2'],
    [
      { section1: 'https://h.example//', section2: '//api//', section3: '//v2//' },
      'https://h.example/api/v2//',
    ],
    [{ section1: 'https://h.example', section2: 'a//b', section3: 'c' }, 'https://h.example/a//b/c'],
    [{ section1: 'https://h.example', section3: 'only-three' }, 'https://h.example/only-three'],
    [{ section1: 'https://h.example/base', section2: 'x' }, 'https://h.example/base/x'],
    [
      { section1: 'https://h.example', section2: 'api', section4: 'a=1&b=2' },
      'https://h.example/api?a=1&b=2',
    ],
    [{ section1: 'https://h.example', section2: 'api', section4: '?a=1' }, 'https://h.example/api?a=1'],
    [{ section1: 'https://h.example', section4: 'a=1' }, 'https://h.example/?a=1'],
    [{ section1: 'HTTPS://H.Example', section2: 'Api' }, 'https://h.example/Api'],
    [{ section1: 'https://h.example', section2: 'a b', section3: 'é' }, 'https://h.example/a%20b/%C3%A9'],
    [{ section1: 'https://user:pw@h.example', section2: 'x' }, 'https://user:pw@h.example/x'],
  ])('%j → %s', (sections, expected) => {
    expect(url(sections)).toBe(expected);
  });

  it('skips sections that render empty', () => {
    expect(
      url({ section1: 'https://h.example', section2: '{{#api.QueryParameters.v}}', section3: 'x' }),
    ).toBe('https://h.example/x');
    expect(
      url({ section1: 'https://h.example', section2: 'api', section4: '{{#api.QueryParameters.q}}' }),
    ).toBe('https://h.example/api');
  });

  it('builds the section 1 origin from #env values', () => {
    expect(url({ section1: 'https://{{#env.backend.host}}', section2: '{{#env.backend.path}}' })).toBe(
      'https://backend.example.com/v2/orders',
    );
    expect(url({ section1: '{{#env.backend.host}}:9443' })).toBe('https://backend.example.com:9443/');
  });

  it('inserts #api.BasePath as configuration (a path)', () => {
    expect(
      url({ section1: 'https://h.example', section2: '{{#api.BasePath}}/v1' }, { basePath: '/orders' }),
    ).toBe('https://h.example/orders/v1');
  });
});

describe('request data is encoded for its place', () => {
  const sections = {
    section1: 'https://h.example',
    section2: 'api',
    section3: 'items/{{#api.QueryParameters.id}}',
  };

  it.each([
    ['42', 'https://h.example/api/items/42'],
    ['a?b#c', 'https://h.example/api/items/a%3Fb%23c'],
    ['a b+c', 'https://h.example/api/items/a%20b%2Bc'],
    ['@evil.com', 'https://h.example/api/items/%40evil.com'],
    ['%41', 'https://h.example/api/items/%2541'],
    ['...', 'https://h.example/api/items/...'],
  ])('a query value %j in a path section', (value, expected) => {
    expect(url(sections, { queryString: new URLSearchParams({ id: value }).toString() })).toBe(expected);
  });

  it.each(['.', '..'])('refuses a value %j that would be a dot segment', (value) => {
    const error = renderError(sections, { queryString: `id=${value}` });
    expect(error.kind).toBe('unsafe-value');
    expect(error.message).toMatch(/'\.' or '\.\.' segment/);
  });

  // A target that decodes %2F would read these as segments, outside the configured path: refused, not encoded.
  it.each(['../admin/secret.txt', 'a/b', '//evil.com', 'a\\b', '%2e%2e', '%2F', '..%5Cx'])(
    'refuses a value %j holding a separator or a dot segment once decoded',
    (value) => {
      const error = renderError(sections, { queryString: new URLSearchParams({ id: value }).toString() });
      expect(error).toMatchObject({ kind: 'unsafe-value', place: 'section3' });
    },
  );

  it('refuses a dot segment formed by literal text and request data together', () => {
    const error = renderError(
      { section1: 'https://h.example', section2: 'a/.{{#api.QueryParameters.x}}/b' },
      { queryString: 'x=.' },
    );
    expect(error.kind).toBe('unsafe-value');
  });

  it('encodes values in the query section so they cannot add parameters', () => {
    const built = url(
      { section1: 'https://h.example', section4: 'q={{#api.QueryParameters.q}}&fixed=1' },
      { queryString: `q=${encodeURIComponent('x&admin=true#frag+y=')}` },
    );
    expect(built).toBe('https://h.example/?q=x%26admin%3Dtrue%23frag%2By%3D&fixed=1');
    expect([...new URL(built).searchParams]).toEqual([
      ['q', 'x&admin=true#frag+y='],
      ['fixed', '1'],
    ]);
  });

  it('encodes path parameters and the whole query string as single values in a path section', () => {
    expect(
      url(
        {
          section1: 'https://h.example',
          section2: '{{#api.OperationPath.id}}',
          section3: '{{#api.QueryParameters}}',
        },
        { pathParameters: { id: 'a b?' }, queryString: 'x=1&y=2' },
      ),
    ).toBe('https://h.example/a%20b%3F/x%3D1%26y%3D2');
  });

  it('keeps the segments of a bare #api.OperationPath, each one re-encoded', () => {
    const sectionsAll = {
      section1: 'https://h.example',
      section2: 'backend',
      section3: '{{#api.OperationPath}}',
    };
    const build = (operationPath: string) => url(sectionsAll, { operationPath }, allOperationsContext);
    expect(build('/items/42')).toBe('https://h.example/backend/items/42');
    expect(build('/items/a%20b/')).toBe('https://h.example/backend/items/a%20b/');
    expect(build('/%E2%9C%93?x')).toBe('https://h.example/backend/%E2%9C%93%3Fx');
    expect(build('')).toBe('https://h.example/backend');
    // The slash after the base path is kept: `/base/` is not `/base`.
    expect(build('/')).toBe('https://h.example/backend/');
  });

  it.each(['/a/../b', '/a/./b', '/%2e%2e/x', '/a//b', '//evil.com/x', '/.%2E', '/a%2Fb/c'])(
    'refuses the incoming path %j',
    (operationPath) => {
      const error = renderError(
        { section1: 'https://h.example', section3: '{{#api.OperationPath}}' },
        { operationPath },
        allOperationsContext,
      );
      expect(error).toMatchObject({
        kind: 'unsafe-value',
        place: 'section3',
        reference: '#api.OperationPath',
      });
    },
  );

  it('re-encodes a bare #api.QueryParameters in the query section', () => {
    const build = (queryString: string) =>
      url(
        { section1: 'https://h.example', section4: '{{#api.QueryParameters}}' },
        { queryString },
        allOperationsContext,
      );
    expect(build('a=1&b=two%20words&c')).toBe('https://h.example/?a=1&b=two%20words&c');
    expect(build('a=1#frag')).toBe('https://h.example/?a=1%23frag');
    expect(build('x=1=2&&y=%zz&z=é')).toBe('https://h.example/?x=1%3D2&y=%25zz&z=%C3%A9');
    expect(build('ids[]=1&ids[]=2&q=a+b')).toBe('https://h.example/?ids[]=1&ids[]=2&q=a+b');
  });

  it('encodes request data used through expressions, once', () => {
    expect(
      url(
        { section1: 'https://h.example', section3: '{{ "v-" + #api.QueryParameters.id.ToUpper() }}' },
        { queryString: 'id=a?b' },
      ),
    ).toBe('https://h.example/v-A%3FB');
    expect(
      url(
        { section1: 'https://h.example', section4: 'q={{ Uri.EscapeDataString(#api.QueryParameters.q) }}' },
        { queryString: 'q=a%20b%26c' },
      ),
    ).toBe('https://h.example/?q=a%20b%26c');
    // EscapeDataString leaves dots alone, so the dot-segment check still applies.
    expect(
      renderError(
        { section1: 'https://h.example', section3: '{{ Uri.EscapeDataString(#api.QueryParameters.q) }}' },
        { queryString: 'q=..' },
      ).kind,
    ).toBe('unsafe-value');
  });
});

describe('the origin comes from configuration only', () => {
  it('refuses request data in section 1 at compile time', () => {
    for (const section1 of [
      'https://{{#api.QueryParameters.host}}',
      '{{#env.backend.url}}/{{#api.OperationPath.id}}',
      '{{ #api.QueryParameters.h ?? "x" }}.example.com',
      'https://h.example/{{#api.QueryParameters}}',
    ]) {
      const errors = compileErrors({ section1 });
      expect(errors[0]).toMatchObject({
        place: 'section1',
        message: expect.stringMatching(/cannot use request data/),
      });
    }
  });

  it('allows #api.BasePath in section 1 (it is configuration)', () => {
    expect(url({ section1: 'https://h.example{{#api.BasePath}}' }, { basePath: '/orders' })).toBe(
      'https://h.example/orders',
    );
  });

  it('refuses a section 1 that does not give an http(s) origin', () => {
    expect(compileErrors({ section1: 'ftp://h.example' })[0]?.message).toMatch(/only http and https/);
    expect(compileErrors({ section1: 'https://' })[0]?.message).toMatch(/not a valid server name/);
    expect(compileErrors({ section1: 'https://h.example?x=1' })[0]?.message).toMatch(
      /contains '\?'; section 1 is a server name/,
    );
    expect(compileErrors({ section1: '   ' })[0]).toMatchObject({
      place: 'section1',
      message: expect.stringMatching(/required/),
    });
    const error = renderError({ section1: '{{#env.region}}://x' }, { env: { region: 'javascript' } });
    expect(error).toMatchObject({
      kind: 'invalid-url',
      message: expect.stringMatching(/only http and https/),
    });
  });

  it('refuses an #env value that is not a valid server, or misplaced URL characters', () => {
    expect(renderError({ section1: '{{#env.region}}' }, { env: { region: 'bad host' } }).kind).toBe(
      'invalid-url',
    );
    expect(renderError({ section1: '{{#env.region}}' }, { env: { region: 'h.example?x' } })).toMatchObject({
      kind: 'invalid-url',
      place: 'section1',
      reference: '#env.region',
    });
    expect(
      renderError({ section1: 'https://h.example', section2: '{{#env.region}}' }, { env: { region: 'a#b' } })
        .kind,
    ).toBe('invalid-url');
    expect(
      renderError({ section1: 'https://h.example', section2: '{{#env.region}}' }, { env: { region: 'a\nb' } })
        .kind,
    ).toBe('invalid-url');
  });

  it('reports an #env value missing at run time by its reference, never by value', () => {
    const error = renderError({ section1: '{{#env.backend.url}}', section2: 'x' }, { env: {} });
    expect(error).toEqual({
      kind: 'missing-reference',
      place: 'section1',
      reference: '#env.backend.url',
      message: '{{#env.backend.url}}: #env.backend.url has no value in this environment',
    });
  });
});

describe('compile errors', () => {
  it('names the section and position of every error', () => {
    const errors = compileErrors({
      section1: 'https://h.example',
      section2: 'ok/{{#env.nope}}',
      section3: 'x{{ 1 * 2 }}',
      section4: 'a={{#api.QueryParameters.a}}&b={{ "x".Foo() }}',
    });
    expect(errors).toEqual([
      expect.objectContaining({
        place: 'section2',
        position: 10,
        message: expect.stringMatching(/unknown environment variable 'nope'/),
      }),
      expect.objectContaining({
        place: 'section3',
        position: 6,
        message: expect.stringMatching(/'\*' is not supported/),
      }),
      expect.objectContaining({
        place: 'section4',
        position: 38,
        message: expect.stringMatching(/'Foo\(\)' is not supported/),
      }),
    ]);
  });

  it('refuses literal text a URL section cannot hold', () => {
    expect(compileErrors({ section1: 'https://h.example', section2: 'a?b' })[0]).toMatchObject({
      place: 'section2',
      position: 1,
    });
    expect(compileErrors({ section1: 'https://h.example', section3: 'a#b' })[0]).toMatchObject({
      place: 'section3',
      position: 1,
    });
    expect(compileErrors({ section1: 'https://h.example', section4: 'a=1#x' })[0]).toMatchObject({
      place: 'section4',
      position: 3,
    });
    expect(compileErrors({ section1: 'https://h.example', section2: 'a\tb' })[0]).toMatchObject({
      place: 'section2',
      position: 1,
    });
  });

  it('refuses constant expressions whose value cannot stand in the place', () => {
    expect(compileErrors({ section1: 'https://h.example', section2: '{{ "a?b" }}' })[0]?.message).toMatch(
      /this value contains '\?'/,
    );
    expect(
      compileErrors({ section1: 'https://h.example', section2: '{{ "abc".Substring(5) }}' })[0]?.message,
    ).toMatch(/this expression always fails: Substring/);
  });

  it('refuses spans that are not closed on their line, and over-long templates', () => {
    expect(compileErrors({ section1: 'https://h.example', section2: 'a{{#env.region' })[0]).toMatchObject({
      position: 1,
      message: expect.stringMatching(/not closed/),
    });
    expect(compileErrors({ section1: 'https://h.example', section2: 'x'.repeat(5000) })[0]?.message).toMatch(
      /longer than 4096/,
    );
  });

  it('refuses a span whose value is a byte array', () => {
    expect(
      compileErrors({ section1: 'https://h.example', section2: '{{ Encoding.UTF8.GetBytes("x") }}' })[0]
        ?.message,
    ).toMatch(/byte array cannot be inserted/);
  });
});

describe('one request, one instant', () => {
  it('reads the clock once per render, however many spans use it', () => {
    let calls = 0;
    const scope = { ...makeScope(), now: () => new Date(Date.UTC(2024, 0, 1, 0, 0, calls++)) };
    const compiled = target({
      section1: 'https://h.example',
      section2: '{{DateTime.UtcNow.ToString("ss")}}',
      section4: 'a={{DateTime.UtcNow.ToString("ss")}}&b={{DateTime.Now.AddMinutes(0).ToString("ss")}}',
    });
    expect(compiled.render(scope)).toMatchObject({ ok: true, url: 'https://h.example/00?a=00&b=00' });
    expect(calls).toBe(1);
  });
});

describe('masking of secrets', () => {
  it('masks secret #env members in the masked URL only', () => {
    const rendered = target({
      section1: 'https://{{#env.backend.user}}:{{#env.backend.password}}@h.example',
      section4: 'key={{#env.backend.apiKey}}&id={{#api.QueryParameters.id}}',
    }).render(makeScope({ queryString: 'id=7' }));
    expect(rendered).toEqual({
      ok: true,
      url: 'https://alice:pa%3Ass@h.example/?key=s3cr3t-key&id=7',
      maskedUrl: 'https://alice:********@h.example/?key=********&id=7',
    });
  });

  it('masks a whole section 1 that is secret', () => {
    const rendered = target({ section1: '{{#env.backend.password}}', section2: 'x' }).render(
      makeScope({ env: { 'backend.password': { value: 'secret.example.com', secret: true } } }),
    );
    expect(rendered).toMatchObject({
      ok: true,
      url: 'https://secret.example.com/x',
      maskedUrl: 'https://********/x',
    });
  });

  it('keeps GUIDs and times equal between the URL and its masked form', () => {
    const rendered = target({
      section1: 'https://h.example',
      section4: 'id={{Guid.NewGuid()}}&t={{DateTime.UtcNow.ToString("o")}}&k={{#env.backend.apiKey}}',
    }).render(makeScope());
    if (!rendered.ok) throw new Error(rendered.error.message);
    expect(rendered.maskedUrl).toBe(rendered.url.replace('s3cr3t-key', '********'));
  });
});
