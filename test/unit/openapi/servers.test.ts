import { describe, expect, it } from 'vitest';
import {
  basePathFromServerUrl,
  substituteServerVariables,
} from '../../../src-server/control/apis/openapi/index.js';
import { expectIssue, openApi30, openApi31, parseIssues, parseOk, swagger20 } from './helpers.js';

function withServers(servers: unknown, base = openApi30()) {
  return { ...base, servers };
}

describe('OpenAPI 3 servers', () => {
  it.each([
    ['https://api.example.com/v1', '/v1'],
    ['https://api.example.com:8443/v1/', '/v1'],
    ['http://api.example.com', '/'],
    ['https://api.example.com/', '/'],
    ['/v1', '/v1'],
    ['/v1/', '/v1'],
    ['/', '/'],
    ['//api.example.com/v1', '/v1'],
    ['https://api.example.com/a//b/', '/a/b'],
    ['https://api.example.com/a/./b/../c', '/a/c'],
    ['https://api.example.com/my api', '/my%20api'],
  ])('server URL %s gives base path %s', (url, basePath) => {
    const definition = parseOk(withServers([{ url }]));
    expect(definition.basePath).toBe(basePath);
    expect(definition.serverUrl).toBe(url);
  });

  it('resolves relative URLs without a leading slash against "/", with a warning', () => {
    for (const url of ['v1', './v1']) {
      const definition = parseOk(withServers([{ url }]));
      expect(definition.basePath).toBe('/v1');
      expectIssue(definition.warnings, '/servers/0/url', 'resolved against "/"');
    }
  });

  it('replaces server variables by their defaults', () => {
    const definition = parseOk(
      withServers([
        {
          url: 'https://{host}/{basePath}',
          variables: {
            host: { default: 'api.example.com' },
            basePath: { default: 'orders/v2', enum: ['orders/v2', 'v1'] },
          },
        },
      ]),
    );
    expect(definition.serverUrl).toBe('https://api.example.com/orders/v2');
    expect(definition.basePath).toBe('/orders/v2');
  });

  it('uses the first server and warns when others have another base path', () => {
    const definition = parseOk(
      withServers([{ url: '/v1' }, { url: 'https://x.example.com/v1' }, { url: '/v2' }]),
    );
    expect(definition.basePath).toBe('/v1');
    expect(definition.warnings).toEqual([
      {
        pointer: '/servers/2',
        message: 'base path "/v2" differs from the first server\'s "/v1"; the first server\'s is used',
      },
    ]);
  });

  it('defaults to base path "/" without servers, with a warning', () => {
    for (const servers of [undefined, []]) {
      const definition = parseOk(withServers(servers));
      expect(definition.basePath).toBe('/');
      expect(definition.serverUrl).toBeUndefined();
      expectIssue(definition.warnings, '/servers', 'overlaps the base path of every other API');
    }
  });

  it('warns about Swagger fields in OpenAPI 3 and about unused variables, odd schemes and query strings', () => {
    const definition = parseOk({
      ...withServers([{ url: 'ftp://files.example.com/v1?x=1', variables: { unused: { default: 'a' } } }]),
      host: 'x',
    });
    expectIssue(definition.warnings, '/host', 'Swagger 2.0 field');
    expectIssue(definition.warnings, '/servers/0/variables/unused', 'not used in the URL');
    expectIssue(definition.warnings, '/servers/0/url', 'scheme "ftp" is not http or https');
    expectIssue(definition.warnings, '/servers/0/url', 'query string and fragment');
  });

  it('reads a numeric variable default as a string, with a warning', () => {
    const definition = parseOk(
      withServers([{ url: 'https://api.example.com:{port}/v1', variables: { port: { default: 8443 } } }]),
    );
    expect(definition.serverUrl).toBe('https://api.example.com:8443/v1');
    expectIssue(definition.warnings, '/servers/0/variables/port/default', 'should be a string');
  });

  it.each([
    ['servers not an array', { url: '/v1' }, '/servers', 'should be an array'],
    ['a server that is not an object', ['/v1'], '/servers/0', 'should be an object with a url'],
    ['a server without url', [{ description: 'x' }], '/servers/0/url', 'missing'],
    ['a url that is not a string', [{ url: 5 }], '/servers/0/url', 'should be a URL string, found 5'],
    [
      'an undefined variable',
      [{ url: 'https://{host}/v1' }],
      '/servers/0/url',
      'variable {host} is used in the URL but has no default',
    ],
    [
      'an unclosed brace',
      [{ url: 'https://{host/v1', variables: { host: { default: 'a' } } }],
      '/servers/0/url',
      'is not closed',
    ],
    [
      'a stray closing brace',
      [{ url: 'https://host}/v1' }],
      '/servers/0/url',
      "'}' at position 12 has no matching '{'",
    ],
    [
      'variables not an object',
      [{ url: '/{v}', variables: [] }],
      '/servers/0/variables',
      'should be an object',
    ],
    [
      'a variable without default or enum',
      [{ url: '/{v}', variables: { v: {} } }],
      '/servers/0/variables/v/default',
      'missing',
    ],
    [
      'a variable that is not an object',
      [{ url: '/{v}', variables: { v: 'a' } }],
      '/servers/0/variables/v',
      'should be an object',
    ],
    [
      'an object default',
      [{ url: '/{v}', variables: { v: { default: {} } } }],
      '/servers/0/variables/v/default',
      'should be a string',
    ],
    ['an invalid absolute URL', [{ url: 'https://exa mple.com/v1' }], '/servers/0/url', 'not a valid URL'],
    [
      'a non-hierarchical URL',
      [{ url: 'mailto:api@example.com' }],
      '/servers/0/url',
      'must be like https://host/path',
    ],
  ])('ignores %s, with a warning, and falls back to "/"', (_name, servers, pointer, message) => {
    const definition = parseOk(withServers(servers));
    expect(definition.basePath).toBe('/');
    expectIssue(definition.warnings, pointer, message);
  });

  it('uses the first usable server when the first is broken', () => {
    const definition = parseOk(withServers([{ url: 'https://{host}/v1' }, { url: '/v2' }]));
    expect(definition.basePath).toBe('/v2');
    expectIssue(definition.warnings, '/servers/1', 'the first usable server');
  });

  it('reads an empty server URL as "/" when the document\'s location is unknown', () => {
    const definition = parseOk(withServers([{ url: '' }]));
    expect(definition.basePath).toBe('/');
    expectIssue(definition.warnings, '/servers/0/url', 'empty server URL');
  });

  it("resolves relative and empty server URLs against the document's URL", () => {
    const documentUrl = 'https://backend.example.com/api/v2/openapi.json';
    const empty = parseOk(withServers([{ url: '' }]), { documentUrl });
    expect(empty).toMatchObject({ basePath: '/api/v2', serverUrl: 'https://backend.example.com/api/v2/' });
    expect(parseOk(withServers([{ url: '../v3' }]), { documentUrl }).basePath).toBe('/api/v3');
    expect(parseOk(withServers([{ url: '/root' }]), { documentUrl }).serverUrl).toBe(
      'https://backend.example.com/root',
    );
    const none = parseOk(withServers(undefined), { documentUrl });
    expect(none).toMatchObject({ basePath: '/', serverUrl: 'https://backend.example.com/' });
  });

  it('takes a variable without default from its enum, and warns about enum problems', () => {
    const fromEnum = parseOk(withServers([{ url: '/{v}', variables: { v: { enum: ['a', 'b'] } } }]));
    expect(fromEnum.basePath).toBe('/a');
    expectIssue(fromEnum.warnings, '/servers/0/variables/v/default', 'first enum value "a" is used');
    const notInEnum = [{ url: '/{v}', variables: { v: { default: 'c', enum: ['a', 'b'] } } }];
    const emptyEnum = [{ url: '/{v}', variables: { v: { default: 'c', enum: [] } } }];
    const nonString = [{ url: '/{v}', variables: { v: { default: 'a', enum: [1] } } }];
    expectIssue(
      parseIssues(withServers(notInEnum, openApi31())),
      '/servers/0/variables/v/default',
      'not one of the enum values',
    );
    expectIssue(
      parseIssues(withServers(emptyEnum, openApi31())),
      '/servers/0/variables/v/enum',
      'should not be empty',
    );
    expectIssue(parseIssues(withServers(nonString)), '/servers/0/variables/v/enum', 'array of strings');
    expect(parseOk(withServers(notInEnum)).basePath).toBe('/c');
  });
});

describe('Swagger 2.0 host, basePath and schemes', () => {
  it('builds the server URL from scheme, host and basePath, preferring https', () => {
    expect(
      parseOk(swagger20({ schemes: ['http', 'https'], host: 'b.example.com:8080', basePath: '/x/' })),
    ).toMatchObject({
      serverUrl: 'https://b.example.com:8080/x',
      basePath: '/x',
    });
    expect(parseOk(swagger20({ schemes: ['http'] })).serverUrl).toBe('http://billing.example.com/billing');
    expect(parseOk(swagger20({ schemes: undefined })).serverUrl).toBe('https://billing.example.com/billing');
  });

  it('uses basePath alone without a host, and "/" without either (with a warning)', () => {
    expect(parseOk(swagger20({ host: undefined }))).toMatchObject({
      serverUrl: '/billing',
      basePath: '/billing',
    });
    const bare = parseOk(swagger20({ host: undefined, basePath: undefined }));
    expect(bare.serverUrl).toBeUndefined();
    expect(bare.basePath).toBe('/');
    expectIssue(bare.warnings, '/basePath', 'overlaps');
  });

  it('warns about OpenAPI 3 servers in a Swagger document', () => {
    expectIssue(
      parseOk(swagger20({ servers: [{ url: '/v1' }] })).warnings,
      '/servers',
      'ignored in Swagger 2.0',
    );
  });

  it.each([
    [
      'a host with a scheme',
      { host: 'https://billing.example.com' },
      '/host',
      'no scheme or path',
      '/billing',
    ],
    ['a host with a path', { host: 'billing.example.com/v1' }, '/host', 'no scheme or path', '/billing'],
    ['a host that is not a string', { host: 42 }, '/host', 'found 42', '/billing'],
    ['a relative basePath', { basePath: 'billing' }, '/basePath', 'read as "/billing"', '/billing'],
    [
      'a templated basePath',
      { basePath: '/{tenant}/billing' },
      '/basePath',
      'does not support templating',
      '/',
    ],
    ['a basePath with a query', { basePath: '/billing?x=1' }, '/basePath', 'query string', '/billing'],
    ['schemes not an array', { schemes: 'https' }, '/schemes', 'should be an array', '/billing'],
    [
      'an unknown scheme',
      { schemes: ['https', 'ftp'] },
      '/schemes/1',
      'should be one of http, https, ws, wss; found "ftp"',
      '/billing',
    ],
  ])('imports %s with a warning', (_name, overrides, pointer, message, basePath) => {
    const definition = parseOk(swagger20(overrides));
    expect(definition.basePath).toBe(basePath);
    expectIssue(definition.warnings, pointer, message);
  });

  it("takes the host of the document's URL when there is no host", () => {
    const definition = parseOk(swagger20({ host: undefined }), {
      documentUrl: 'http://legacy.example.com:8080/swagger.json',
    });
    expect(definition.serverUrl).toBe('http://legacy.example.com:8080/billing');
  });

  it('accepts IPv6 hosts with a port', () => {
    expect(parseOk(swagger20({ host: '[::1]:8080' })).serverUrl).toBe('https://[::1]:8080/billing');
  });
});

describe('server URL helpers', () => {
  it('substituteServerVariables reports used and unknown names', () => {
    expect(substituteServerVariables('https://{a}/{b}/{a}', new Map([['a', 'x']]))).toEqual({
      url: 'https://x/{b}/x',
      usedNames: ['a', 'b'],
      unknownNames: ['b'],
      problems: [],
    });
  });

  it('basePathFromServerUrl refuses what is not a URL', () => {
    expect(basePathFromServerUrl('https://')).toEqual({
      ok: false,
      message: 'server URL "https://" is not a valid URL',
    });
  });
});
