import { describe, expect, it } from 'vitest';
import {
  compileForwardingEntry,
  planForwarding,
  withEntryDefaults,
  type ForwardingPlan,
  type IncomingHeaders,
  type PartialPassthroughEntry,
} from '../../../src-server/core/passthrough/forwarding/index.js';
import type { EnvValue } from '../../../src-server/core/template/index.js';

const ENV: Record<string, EnvValue> = {
  'backend.url': { value: 'https://backend.example.com', secret: false },
  'backend.token': { value: 's3cr3t-token', secret: true },
};
const env = (variable: string, member?: string) => ENV[`${variable}.${member}`];
const variables = { backend: { kind: 'group' as const, members: ['url', 'token'] } };

function plan(entry: PartialPassthroughEntry, headers: IncomingHeaders = {}, query = '', method = 'GET') {
  const compiled = compileForwardingEntry(withEntryDefaults(entry), {
    env: { variables },
    pathParameters: [],
    scope: 'allOperations',
  });
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.errors));
  return planForwarding(
    compiled.compiled,
    { method, path: '/api/a/b', query, headers, clientIp: '10.0.0.9', scheme: 'http' },
    { basePath: '/api', operationPath: '/a/b', pathParameters: {} },
    { env, masked: true },
  );
}

function ok(result: ReturnType<typeof plan>): ForwardingPlan {
  if (!result.ok) throw new Error(result.message);
  return result;
}

const target = {
  section1: '{{#env.backend.url}}',
  section2: 'v1',
  section3: '{{#api.OperationPath}}',
  section4: '{{#api.QueryParameters}}',
};

describe('forwarding plan', () => {
  it('builds the target and the forwarded headers', () => {
    const result = ok(
      plan(
        { target },
        {
          host: 'gateway.local:8080',
          connection: 'keep-alive, X-Hop',
          'x-hop': 'dropped',
          'keep-alive': 'timeout=5',
          'proxy-authorization': 'Basic eA==',
          te: 'trailers',
          upgrade: 'h2c',
          'x-forwarded-for': '1.2.3.4',
          'x-forwarded-proto': 'https',
          accept: 'application/json',
          'content-length': '3',
        },
        'q=1',
      ),
    );
    expect(result.targetUrl).toBe('https://backend.example.com/v1/a/b?q=1');
    expect(result.headers).toEqual({
      accept: 'application/json',
      'content-length': '3',
      'x-forwarded-for': '1.2.3.4, 10.0.0.9',
      'x-forwarded-proto': 'http',
      'x-forwarded-host': 'gateway.local:8080',
      traceparent: result.traceparent,
      via: '1.1 gatehouse',
      host: 'backend.example.com',
    });
    expect(result.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
  });

  it('appends to Via and Forwarded as to X-Forwarded-For, and counts Max-Forwards down on OPTIONS and TRACE', () => {
    const headers = ok(
      plan(
        { target },
        {
          host: 'gateway.local:8080',
          via: '1.0 fred, 1.1 p.example.net',
          forwarded: 'for=192.0.2.60;proto=https, for=198.51.100.17',
          'max-forwards': '3',
        },
      ),
    ).headers;
    expect(headers.via).toBe('1.0 fred, 1.1 p.example.net, 1.1 gatehouse');
    expect(headers.forwarded).toBe(
      'for=192.0.2.60;proto=https, for=198.51.100.17, for=10.0.0.9;host="gateway.local:8080";proto=http',
    );
    // Max-Forwards counts only for OPTIONS and TRACE (RFC 9110 §7.6.2); the plan of this GET passes it on.
    expect(headers['max-forwards']).toBe('3');
    expect(ok(plan({ target }, { 'max-forwards': '3' }, '', 'OPTIONS')).headers['max-forwards']).toBe('2');
    expect(ok(plan({ target }, { 'max-forwards': '1' }, '', 'TRACE')).headers['max-forwards']).toBe('0');
    expect(ok(plan({ target }, { forwarded: 'for=x' })).headers.forwarded).toBe(
      'for=x, for=10.0.0.9;proto=http',
    );
    // No Forwarded from the client: none is made up (X-Forwarded-* carry the same).
    expect(ok(plan({ target }, { host: 'h' })).headers.forwarded).toBeUndefined();
  });

  it('passes a valid traceparent on and replaces an invalid one', () => {
    const incoming = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    expect(ok(plan({ target }, { traceparent: incoming })).headers.traceparent).toBe(incoming);
    expect(
      ok(plan({ target }, { traceparent: '00-00000000000000000000000000000000-00f067aa0ba902b7-01' })).headers
        .traceparent,
    ).not.toContain('0000000000000000000000');
  });

  it('re-chunks a chunked body and never sends both framings', () => {
    const result = ok(plan({ target }, { 'transfer-encoding': 'chunked' }));
    expect(result.headers['transfer-encoding']).toBe('chunked');
    expect(result.headers['content-length']).toBeUndefined();
  });

  it('applies header entries in order: Add appends, Overwrite replaces, Remove deletes, names ignore case', () => {
    const result = ok(
      plan(
        {
          target,
          headers: [
            { action: 'Add', name: 'X-Tag', value: 'two' },
            { action: 'Add', name: 'x-tag', value: 'three' },
            { action: 'Overwrite', name: 'X-Mode', value: 'strict' },
            { action: 'Remove', name: 'ACCEPT' },
            { action: 'Overwrite', name: 'Authorization', value: 'Bearer {{#env.backend.token}}' },
            { action: 'Add', name: 'X-Token-Copy', value: '{{#env.backend.token}}' },
          ],
        },
        { 'x-tag': 'one', 'x-mode': 'lax', accept: '*/*', authorization: 'Basic client' },
      ),
    );
    expect(result.headers['x-tag']).toEqual(['one', 'two', 'three']);
    expect(result.headers['x-mode']).toBe('strict');
    expect(result.headers.accept).toBeUndefined();
    expect(result.headers.authorization).toBe('Bearer s3cr3t-token');
    expect(result.maskedHeaders).toMatchObject({
      'x-tag': ['one', 'two', 'three'],
      authorization: '********',
      'x-token-copy': '********',
    });
    expect(JSON.stringify(result.maskedHeaders)).not.toContain('s3cr3t');
  });

  it('masks secrets in the target URL and credential headers that came from the client', () => {
    const result = ok(
      plan(
        { target: { ...target, section4: 'token={{#env.backend.token}}' } },
        { 'x-api-key': 'client-key' },
      ),
    );
    expect(result.targetUrl).toContain('s3cr3t-token');
    expect(result.maskedTargetUrl).not.toContain('s3cr3t-token');
    expect(result.maskedHeaders?.['x-api-key']).toBe('********');
  });

  it('refuses request data that would move the target or break a header, as typed refusals', () => {
    const unsafe = plan(
      { target, headers: [{ action: 'Add', name: 'X-Q', value: '{{#api.QueryParameters.q}}' }] },
      {},
      'q=a%0D%0AX-Evil:%201',
    );
    expect(unsafe).toMatchObject({ ok: false, status: 400, kind: 'unsafe-value', place: 'header:0' });
    const missing = planForwarding(
      (() => {
        const compiled = compileForwardingEntry(withEntryDefaults({ target }), {
          env: { variables },
          pathParameters: [],
          scope: 'allOperations',
        });
        if (!compiled.ok) throw new Error('compile');
        return compiled.compiled;
      })(),
      { method: 'GET', path: '/api', query: '', headers: {}, clientIp: '1.1.1.1', scheme: 'http' },
      { basePath: '/api', operationPath: '', pathParameters: {} },
      { env: () => undefined },
    );
    expect(missing).toMatchObject({
      ok: false,
      status: 503,
      kind: 'missing-reference',
      reference: '#env.backend.url',
    });
  });

  it('refuses header entries the gateway owns, with their place', () => {
    const compiled = compileForwardingEntry(
      withEntryDefaults({
        target,
        headers: [
          { action: 'Overwrite', name: 'Host', value: 'evil' },
          { action: 'Remove', name: 'Content-Length' },
          { action: 'Add', name: 'Bad Name', value: 'x' },
          { action: 'Add', name: 'X-Fine', value: 'x' },
        ],
      }),
      { env: { variables }, pathParameters: [], scope: 'allOperations' },
    );
    expect(compiled.ok).toBe(false);
    if (compiled.ok) return;
    expect(compiled.errors.map((error) => error.place)).toEqual(['header:0', 'header:1', 'header:2']);
  });
});
