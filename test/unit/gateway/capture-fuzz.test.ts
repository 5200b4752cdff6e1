import type { IncomingMessage } from 'node:http';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BodyTap, ExchangeCapture, textOf } from '../../../src-server/gateway/exchange/capture.js';

const SECRET = 'sealed-secret-value';

function request(rawHeaders: string[], url: string): IncomingMessage {
  // What the capture reads of a request: its line and raw headers.
  return { method: 'POST', url, httpVersion: '1.1', rawHeaders } as unknown as IncomingMessage;
}

const rules = (maxBodyBytes: number) => ({
  maxBodyBytes,
  credentialHeaders: new Set(['x-custom-key']),
  credentialQuery: new Set<string>(),
  redact: (text: string) => text.split(SECRET).join('********'),
});

describe('monitoring capture of bodies (fuzzed)', () => {
  it('keeps at most the cap, counts everything, and never throws on any bytes or content type', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 200 }), { maxLength: 8 }),
        fc.nat({ max: 300 }),
        fc.option(
          fc.constantFrom('application/json', 'text/plain', 'image/png', 'application/x-www-form-urlencoded'),
          { nil: undefined },
        ),
        (chunks, cap, contentType) => {
          const tap = new BodyTap(cap);
          for (const chunk of chunks) tap.add(Buffer.from(chunk));
          const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
          expect(tap.bytes).toBe(total);
          expect(tap.kept().length).toBe(Math.min(cap, total));
          const text = textOf(tap.kept(), contentType, total > cap);
          if (text !== undefined) expect(Buffer.byteLength(text)).toBeLessThanOrEqual(cap);

          const capture = new ExchangeCapture(rules(cap), request(['Content-Type', contentType ?? ''], '/a'));
          capture.requestBodyRead = true;
          for (const chunk of chunks) capture.requestBody.add(Buffer.from(chunk));
          const body = capture.finish().request.body!;
          expect(body.bytes).toBe(total);
          expect(body.truncated).toBe(total > cap);
          expect(body.binary).toBe(body.text === undefined);
        },
      ),
    );
  });

  it('never lets a secret through: sealed values, credential headers, secret JSON members, cut or whole', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40 }),
        fc.constantFrom('password', 'apiKey', 'client_secret', 'accessToken'),
        fc.string({ minLength: 6, maxLength: 30 }).filter((value) => !/["\\]/.test(value)),
        fc.integer({ min: 0, max: 400 }),
        (prefix, member, value, cap) => {
          const json = JSON.stringify({ note: prefix, [member]: value, echo: SECRET });
          const capture = new ExchangeCapture(
            rules(cap),
            request(
              ['Content-Type', 'application/json', 'X-Custom-Key', value, 'Authorization', `Bearer ${value}`],
              '/a',
            ),
          );
          capture.requestBodyRead = true;
          capture.requestBody.add(Buffer.from(json));
          capture.respond(200, ['Content-Type', 'application/json', 'X-Echo', SECRET]);
          capture.responseBody.add(Buffer.from(json));
          const stored = JSON.stringify(capture.finish());
          expect(stored).not.toContain(SECRET);
          // The value appears only where the test put it in plain (non-secret) text, never from its member.
          if (!prefix.includes(value) && !JSON.stringify(prefix).includes(value)) {
            expect(stored).not.toContain(value);
          }
        },
      ),
    );
  });
});
