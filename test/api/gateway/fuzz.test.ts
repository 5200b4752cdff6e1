import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Upstream } from '../../helpers/upstreams.js';
import { send, startPublicEchoGateway, type GatewayFixture } from './gateway-fixture.js';

let fixture: GatewayFixture;
let upstream: Upstream;

beforeAll(async () => {
  ({ fixture, upstream } = await startPublicEchoGateway());
  const one = await fixture.addApi({ basePath: '/f1' });
  await fixture.setPassthrough(one.id, {
    allOperations: {
      target: {
        section1: '{{#env.backend.url}}',
        section2: 'one',
        section3: '{{#api.OperationPath}}',
        section4: '{{#api.QueryParameters}}',
      },
    },
  });
  const two = await fixture.addApi({
    basePath: '/f2/v1',
    operations: ['GET /items/{id}', 'GET /items/{id}/{part}.{ext}'],
  });
  await fixture.setPassthrough(two.id, {
    operations: {
      'GET /items/{id}': {
        target: {
          section1: '{{#env.backend.url}}',
          section2: 'two',
          section3: '{{#api.OperationPath.id}}',
          section4: 'q={{#api.QueryParameters.q}}',
        },
      },
      'GET /items/{id}/{part}.{ext}': {
        target: {
          section1: '{{#env.backend.url}}',
          section2: 'two/{{#api.OperationPath.part}}',
          section3: '{{#api.OperationPath.ext}}',
        },
      },
    },
  });
  const root = await fixture.addApi({ basePath: '/' });
  await fixture.setPassthrough(root.id, {
    allOperations: {
      target: {
        section1: upstream.url,
        section2: 'root/{{#api.QueryParameters.p}}',
        section3: '{{#api.OperationPath}}',
      },
      headers: [{ action: 'Add', name: 'X-Q', value: '{{#api.QueryParameters.h}}' }],
    },
  });
});
afterAll(async () => {
  await fixture.close();
  await upstream.close();
});

/** Pieces attackers like, percent-encoded or raw where a request line allows them. */
const hostile = fc.constantFrom(
  '..',
  '.',
  '%2e%2e',
  '%2E.',
  '.%2e',
  '//evil.com',
  '/%2F%2Fevil.com',
  '@evil.com',
  'user@evil.com:80',
  '\\evil',
  '%5C%5Cevil',
  '%0D%0AX-Injected:%201',
  '%0A',
  '%00',
  'http:%2F%2Fevil.com',
  '%252e%252e',
  '?',
  '#',
  ';',
  '%23',
  '%3F',
  '&',
  '=',
  '%26p%3D..',
  'evil.com:443',
  '%E2%80%AE',
  '%C0%AE%C0%AE',
  '%',
  '%zz',
  '~',
  '+',
  ' ',
  'é',
  '😀',
  '[::1]',
);
const word = fc.oneof(fc.string({ minLength: 0, maxLength: 6 }), fc.webSegment(), hostile);
const segments = fc.array(word, { minLength: 0, maxLength: 5 });
const queryPart = fc
  .tuple(fc.constantFrom('p', 'q', 'h', 'x', 'P'), word)
  .map(([name, value]) => `${name}=${value}`);
const query = fc.array(fc.oneof(queryPart, word), { maxLength: 4 });
const prefix = fc.constantFrom('/f1', '/f2/v1/items', '/f2/v1/items/1', '', '/F1', '/f1v2', '/f2');

/** What a client could put on the request line: the rest is percent-encoded (Node refuses it on the wire). */
function onTheWire(text: string): string {
  return text.replace(/[^\u0021-\u007e]/gu, (char) => encodeURIComponent(char));
}

/**
 * The path a target sees never leaves the configured base path, whatever the target decodes: no dot segment and
 * no segment holding a separator once decoded (once or twice).
 */
function expectNoEscape(path: string): void {
  for (const segment of path.split('/').slice(1)) {
    for (const decoded of [lenientDecode(segment), lenientDecode(lenientDecode(segment))]) {
      expect(decoded, path).not.toMatch(/[/\\]/);
      expect(['.', '..'], path).not.toContain(decoded);
    }
  }
}

function lenientDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch (error) {
    if (error instanceof URIError) return text;
    throw error;
  }
}

describe('fuzzing routes and templates with hostile paths and queries', () => {
  it('never answers with a gateway 5xx, and the target host is the configured one every time', async () => {
    const targetHost = new URL(upstream.url).host;
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        prefix,
        segments,
        query,
        fc.constantFrom('GET', 'POST', 'DELETE'),
        async (start, parts, pairs, method) => {
          const before = upstream.requests.length;
          const path = onTheWire(
            `${start}/${parts.join('/')}${pairs.length > 0 ? `?${pairs.join('&')}` : ''}`,
          );
          const response = await send(fixture.gatewayUrl, {
            method,
            path: path.startsWith('/') ? path : `/${path}`,
          });
          expect(response.status, path).toBeLessThan(500);
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          for (const seen of upstream.requests.slice(before)) {
            expect(seen.headers.host, path).toBe(targetHost);
            expect(seen.path, path).toMatch(/^\/(one|two|root)(\/|$)/);
            expect(seen.rawHeaders.join('\n'), path).not.toMatch(/x-injected/i);
            expectNoEscape(seen.path);
          }
        },
      ),
      { numRuns: 400 },
    );
    // The fuzz must exercise forwarding, not only refusals.
    expect(statuses.get(200) ?? 0, JSON.stringify([...statuses])).toBeGreaterThan(100);
  }, 120_000);
});

/** Header names and values a client could send: hostile ones next to ordinary ones. */
const headerName = fc.oneof(
  fc.constantFrom(
    'X-Forwarded-For',
    'X-Forwarded-Host',
    'Forwarded',
    'Via',
    'Max-Forwards',
    'Connection',
    'Upgrade',
    'Keep-Alive',
    'TE',
    'Proxy-Authorization',
    'Traceparent',
    'X-Q',
    'Origin',
    'Access-Control-Request-Method',
    'Cookie',
  ),
  fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,15}$/),
);
const headerValue = fc.oneof(
  fc.constantFrom('0', '-1', 'close', 'upgrade', 'websocket', 'h2c', 'X-Q, Host', 'for=evil', 'evil.com'),
  fc.string({ maxLength: 24 }).map((text) => text.replace(/[^\t\x20-\x7e]/g, '')),
);

describe('fuzzing the headers a client sends', () => {
  it('never answers with a gateway 5xx; the target host and base path hold whatever the headers say', async () => {
    const targetHost = new URL(upstream.url).host;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/f1/a', '/f2/v1/items/1?q=x', '/anything?p=a&h=b'),
        fc.array(fc.tuple(headerName, headerValue), { maxLength: 6 }),
        fc.constantFrom('GET', 'OPTIONS', 'DELETE', 'TRACE'),
        async (path, pairs, method) => {
          const before = upstream.requests.length;
          const headers: Record<string, string[]> = {};
          for (const [name, value] of pairs) (headers[name] ??= []).push(value);
          const response = await send(fixture.gatewayUrl, { method, path, headers }).catch(
            (error: unknown) => {
              // The gateway may close a connection whose framing headers it refuses; never a hang.
              const { code } = error as NodeJS.ErrnoException;
              if (code === 'ECONNRESET' || code === 'HPE_INVALID_CONSTANT') return undefined;
              throw error;
            },
          );
          if (response) expect(response.status, JSON.stringify(pairs)).toBeLessThan(500);
          for (const seen of upstream.requests.slice(before)) {
            expect(seen.headers.host).toBe(targetHost);
            expect(seen.path).toMatch(/^\/(one|two|root)(\/|$)/);
            expectNoEscape(seen.path);
          }
        },
      ),
      { numRuns: 300 },
    );
  }, 120_000);
});

describe('fuzzing the values templates render', () => {
  it('never answers with a gateway 5xx, and an environment value never moves the target', async () => {
    const api = await fixture.addApi({ basePath: '/tv' });
    await fixture.setPassthrough(api.id, {
      allOperations: {
        target: {
          section1: '{{#env.backend.url}}',
          section2: 'tv/{{#env.tv}}',
          section3: '{{#api.QueryParameters.p}}',
          section4: 'v={{#env.tv}}',
        },
        headers: [{ action: 'Overwrite', name: 'X-Value', value: '{{#env.tv}}-{{#api.QueryParameters.p}}' }],
      },
    });
    const targetHost = new URL(upstream.url).host;
    await fc.assert(
      fc.asyncProperty(word, word, async (value, parameter) => {
        await fixture.setVariable('tv', value);
        const before = upstream.requests.length;
        const path = onTheWire(`/tv/x?p=${encodeURIComponent(parameter)}`);
        const response = await send(fixture.gatewayUrl, { path });
        expect(response.status, `${JSON.stringify(value)} ${path}`).toBeLessThan(500);
        for (const seen of upstream.requests.slice(before)) {
          expect(seen.headers.host).toBe(targetHost);
          expect(seen.path).toMatch(/^\/tv(\/|$)/);
          // The environment's value is configuration and may hold anything; the request's value (the last
          // section) never makes a separator or a dot segment.
          if (parameter !== '') expectNoEscape(`/${seen.path.split('/').at(-1)!}`);
        }
      }),
      { numRuns: 200 },
    );
  }, 120_000);
});
