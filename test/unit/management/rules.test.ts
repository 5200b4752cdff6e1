import { isIP } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseEnvReference } from '../../../src-server/core/passthrough/passthrough-references.js';
import { editorPath, FieldErrors } from '../../../src-server/control/common/editor-paths.js';
import { checkAllowedOrigin } from '../../../src-server/control/passthroughs/allowed-origins.js';
import { revealsLiteralSecret } from '../../../src-server/core/passthrough/sealed-headers.js';
import { listenersCollide } from '../../../src-server/control/environments/listener-address.js';
import { normalizeListenerHost } from '../../../src-server/core/contracts/agent-group-schemas.js';
import { parseTypedValue } from '../../../src-server/control/environments/environment-variable-values.js';

describe('allowed origins', () => {
  it.each([
    ['*', '*'],
    ['https://app.example.com', 'https://app.example.com'],
    ['HTTPS://App.Example.COM:8443', 'https://app.example.com:8443'],
    ['https://*.example.com', 'https://*.example.com'],
    ['http://127.0.0.1:5173', 'http://127.0.0.1:5173'],
    ['http://[::1]:3000', 'http://[::1]:3000'],
    ['app://desktop', 'app://desktop'],
  ])('accepts %s', (raw, normalized) => {
    expect(checkAllowedOrigin(raw)).toEqual({ ok: true, origin: normalized });
  });

  it.each([
    'https://app.example.com/',
    'https://app.example.com/path',
    'app.example.com',
    'https://*.com',
    'https://*.127.0.0.1',
    'https://a.*.example.com',
    'https://app.example.com:0',
    'https://app.example.com:70000',
    'null',
    '',
    'https://exa mple.com',
  ])('refuses %j', (raw) => {
    expect(checkAllowedOrigin(raw).ok).toBe(false);
  });
});

describe('editor paths', () => {
  it('brackets keys that are not identifiers', () => {
    expect(editorPath(['operations', 'GET /orders/{id}', 'headers', 0, 'name'])).toBe(
      'operations["GET /orders/{id}"].headers[0].name',
    );
    expect(editorPath(['allOperations', 'target', 'section1'])).toBe('allOperations.target.section1');
    expect(editorPath([])).toBe('body');
  });

  it('caps the number of reported errors', () => {
    const errors = new FieldErrors();
    for (let index = 0; index < 150; index++) errors.add(['items', index], 'bad');
    const problem = errors.toProblem();
    expect(Object.keys(problem.errors!)).toHaveLength(101);
    expect(problem.errors!.body).toEqual(['50 more errors were found.']);
  });
});

describe('environment references', () => {
  it('reads the canonical spellings', () => {
    expect(parseEnvReference('#env.backend')).toEqual({ text: '#env.backend', variable: 'backend' });
    expect(parseEnvReference('#env.backend.url')).toEqual({
      text: '#env.backend.url',
      variable: 'backend',
      member: 'url',
    });
    expect(parseEnvReference('#env["my-var"].x')).toMatchObject({ variable: 'my-var', member: 'x' });
    expect(parseEnvReference('#api.BasePath')).toBeUndefined();
    expect(parseEnvReference('#env')).toBeUndefined();
    expect(parseEnvReference('#env.a.b.c')).toBeUndefined();
  });
});

describe('credential header values in responses', () => {
  it('hides literal text but shows references and auth schemes', () => {
    expect(revealsLiteralSecret('Authorization', 'Bearer abc.def')).toBe(true);
    expect(revealsLiteralSecret('X-API-Key', 'literal-secret')).toBe(true);
    expect(revealsLiteralSecret('Authorization', 'Bearer {{#env.backend.token}}')).toBe(false);
    expect(revealsLiteralSecret('Authorization', '{{#env.backend.token}}')).toBe(false);
    expect(revealsLiteralSecret('X-Trace', 'plain')).toBe(false);
    expect(revealsLiteralSecret('Authorization', undefined)).toBe(false);
  });
});

describe('listener addresses', () => {
  it('accepts localhost and IP addresses only', () => {
    expect(normalizeListenerHost('LOCALHOST')).toBe('localhost');
    expect(normalizeListenerHost('[::1]')).toBe('::1');
    expect(normalizeListenerHost('192.168.1.10')).toBe('192.168.1.10');
    expect(normalizeListenerHost('example.com')).toBeUndefined();
    expect(normalizeListenerHost('')).toBeUndefined();
  });

  it("accepts exactly the addresses Node's isIP accepts (the contract cannot use node:net)", () => {
    const address = fc.oneof(
      fc.ipV4(),
      fc.ipV4Extended(),
      fc.ipV6(),
      fc.tuple(fc.ipV6(), fc.stringMatching(/^%[0-9a-zA-Z.:-]{0,6}$/)).map(([ip, zone]) => ip + zone),
      fc.stringMatching(/^[0-9a-f.:%]{0,20}$/),
    );
    fc.assert(
      fc.property(address, (text) => {
        expect(normalizeListenerHost(text) !== undefined, text).toBe(isIP(text) !== 0);
      }),
      { numRuns: 2000 },
    );
  });

  it('sees collisions through aliases and wildcards, never for free ports', () => {
    expect(listenersCollide({ host: 'localhost', port: 80 }, { host: '127.0.0.1', port: 80 })).toBe(true);
    expect(listenersCollide({ host: '0.0.0.0', port: 80 }, { host: '192.168.1.10', port: 80 })).toBe(true);
    expect(listenersCollide({ host: '127.0.0.1', port: 80 }, { host: '127.0.0.1', port: 81 })).toBe(false);
    expect(listenersCollide({ host: '127.0.0.1', port: 0 }, { host: '127.0.0.1', port: 0 })).toBe(false);
    expect(listenersCollide({ host: '127.0.0.2', port: 80 }, { host: '127.0.0.1', port: 80 })).toBe(false);
  });
});

describe('typed environment variable values', () => {
  it.each([
    ['number', 42, '42'],
    ['number', ' -1.5e3 ', '-1.5e3'],
    ['boolean', 'TRUE', 'true'],
    ['boolean', false, 'false'],
    ['string', '', ''],
    ['secret', 's3', 's3'],
  ] as const)('%s accepts %j', (type, value, text) => {
    expect(parseTypedValue(type, value)).toEqual({ ok: true, text });
  });

  it.each([
    ['number', 'abc'],
    ['number', true],
    ['number', '1e999'],
    ['boolean', 'yes'],
    ['boolean', 1],
    ['string', 5],
    ['secret', false],
  ] as const)('%s refuses %j without echoing it', (type, value) => {
    const parsed = parseTypedValue(type, value);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).not.toContain(String(value));
  });
});
