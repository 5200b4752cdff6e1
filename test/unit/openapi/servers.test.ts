import { describe, expect, it } from 'vitest';
import {
  basePathFromServerUrl,
  substituteServerVariables,
} from '../../../src-server/control/apis/openapi/index.js';
import { expectIssue, openApi30, openApi31, parseErrors, parseOk, swagger20 } from './helpers.js';

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
    ['servers not an array', { url: '/v1' }, '/servers', 'must be an array'],
    ['a server that is not an object', ['/v1'], '/servers/0', 'must be an object with a url'],
    ['a server without url', [{ description: 'x' }], '/servers/0/url', 'missing'],
    ['an empty url', [{ url: '' }], '/servers/0/url', 'non-empty URL'],
    ['a url that is not a string', [{ url: 5 }], '/servers/0/url', 'non-empty URL string, found 5'],
    [
      'an undefined variable',
      [{ url: 'https://{host}/v1' }],
      '/servers/0/url',
      'variable {host} is used in the URL but not defined',
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
    ['variables not an object', [{ url: '/v1', variables: [] }], '/servers/0/variables', 'must be an object'],
    [
      'a variable without default',
      [{ url: '/{v}', variables: { v: { enum: ['a'] } } }],
      '/servers/0/variables/v/default',
      'missing',
    ],
    [
      'a variable that is not an object',
      [{ url: '/{v}', variables: { v: 'a' } }],
      '/servers/0/variables/v',
      'must be an object',
    ],
    [
      'an object default',
      [{ url: '/{v}', variables: { v: { default: {} } } }],
      '/servers/0/variables/v/default',
      'must be a string',
    ],
    [
      'a non-string enum',
      [{ url: '/{v}', variables: { v: { default: 'a', enum: [1] } } }],
      '/servers/0/variables/v/enum',
      'array of strings',
    ],
    ['an invalid absolute URL', [{ url: 'https://exa mple.com/v1' }], '/servers/0/url', 'not a valid URL'],
    [
      'a non-hierarchical URL',
      [{ url: 'mailto:api@example.com' }],
      '/servers/0/url',
      'must be like https://host/path',
    ],
  ])('refuses %s', (_name, servers, pointer, message) => {
    expectIssue(parseErrors(withServers(servers)), pointer, message);
  });

  it('requires defaults from the enum and a non-empty enum in 3.1, only warns in 3.0', () => {
    const notInEnum = [{ url: '/{v}', variables: { v: { default: 'c', enum: ['a', 'b'] } } }];
    const emptyEnum = [{ url: '/{v}', variables: { v: { default: 'c', enum: [] } } }];
    expectIssue(
      parseErrors(withServers(notInEnum, openApi31())),
      '/servers/0/variables/v/default',
      'not one of the enum values',
    );
    expectIssue(
      parseErrors(withServers(emptyEnum, openApi31())),
      '/servers/0/variables/v/enum',
      'must not be empty',
    );
    expectIssue(
      parseOk(withServers(notInEnum)).warnings,
      '/servers/0/variables/v/default',
      'not one of the enum values',
    );
    expectIssue(
      parseOk(withServers(emptyEnum)).warnings,
      '/servers/0/variables/v/enum',
      'should not be empty',
    );
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
    ['a host with a scheme', { host: 'https://billing.example.com' }, '/host', 'no scheme or path'],
    ['a host with a path', { host: 'billing.example.com/v1' }, '/host', 'no scheme or path'],
    ['a host that is not a string', { host: 42 }, '/host', 'found 42'],
    ['a relative basePath', { basePath: 'billing' }, '/basePath', 'must be a path starting with "/"'],
    ['a templated basePath', { basePath: '/{tenant}/billing' }, '/basePath', 'does not support templating'],
    ['a basePath with a query', { basePath: '/billing?x=1' }, '/basePath', 'query string'],
    ['schemes not an array', { schemes: 'https' }, '/schemes', 'must be an array'],
    [
      'an unknown scheme',
      { schemes: ['https', 'ftp'] },
      '/schemes/1',
      'must be one of http, https, ws, wss; found "ftp"',
    ],
  ])('refuses %s', (_name, overrides, pointer, message) => {
    expectIssue(parseErrors(swagger20(overrides)), pointer, message);
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
