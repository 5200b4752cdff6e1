import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  assertContinues,
  ContinuationTokens,
  filterDigest,
  type Continuation,
} from '../../../src-server/control/audit/paging/continuation-token.js';
import { HttpProblem } from '../../../src-server/core/http/problem.js';

const NOW = Date.parse('2026-11-26T00:00:00.000Z');
const tokens = new ContinuationTokens(randomBytes(32));

const continuationArb: fc.Arbitrary<Continuation> = fc.record({
  cursor: fc.record({ timeMs: fc.integer({ min: 0, max: 4e12 }), id: fc.integer({ min: 1, max: 2 ** 52 }) }),
  pageSize: fc.integer({ min: 1, max: 200 }),
  pageNumber: fc.integer({ min: 2, max: 2_147_483_647 }),
  filter: fc.string({ maxLength: 22 }),
  expiresAt: fc.integer({ min: NOW + 1, max: NOW + 10 ** 10 }),
});

/** What reading a token may do: give a continuation, or refuse with a 400 naming `continuationToken`. */
function outcome(token: string): Continuation | string {
  try {
    return tokens.read(token, NOW);
  } catch (error) {
    expect(error).toBeInstanceOf(HttpProblem);
    const problem = error as HttpProblem;
    expect(problem.status).toBe(400);
    expect(Object.keys(problem.errors ?? {})).toEqual(['continuationToken']);
    return problem.code;
  }
}

describe('continuation tokens', () => {
  it('read back what they were issued with', () => {
    fc.assert(
      fc.property(continuationArb, (continuation) => {
        expect(tokens.read(tokens.issue(continuation), NOW)).toEqual(continuation);
      }),
    );
  });

  it('refuse any string that is not an issued token with a 400, never another error', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string({ unit: 'binary' }),
          fc.base64String().map((text) => `c1.${text}.${text}`),
          fc
            .tuple(fc.json(), fc.base64String())
            .map(([json, signature]) => `c1.${Buffer.from(json).toString('base64url')}.${signature}`),
        ),
        (token) => {
          expect(outcome(token)).toBe('GH_ERR_CONTINUATION_TOKEN_INVALID');
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it('refuse a token with any character changed, added or removed', () => {
    fc.assert(
      fc.property(
        continuationArb,
        fc.nat(),
        fc.constantFrom('change', 'insert', 'remove'),
        fc.string({ minLength: 1, maxLength: 1 }),
        (continuation, at, edit, char) => {
          const token = tokens.issue(continuation);
          const k = at % token.length;
          const altered =
            edit === 'change'
              ? token.slice(0, k) + char + token.slice(k + 1)
              : edit === 'insert'
                ? token.slice(0, k) + char + token.slice(k)
                : token.slice(0, k) + token.slice(k + 1);
          fc.pre(altered !== token);
          expect(outcome(altered)).toBe('GH_ERR_CONTINUATION_TOKEN_INVALID');
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it("refuse another key's tokens", () => {
    const other = new ContinuationTokens(randomBytes(32));
    fc.assert(
      fc.property(continuationArb, (continuation) => {
        expect(outcome(other.issue(continuation))).toBe('GH_ERR_CONTINUATION_TOKEN_INVALID');
      }),
    );
  });

  it('expire at their time', () => {
    fc.assert(
      fc.property(continuationArb, (continuation) => {
        const token = tokens.issue({ ...continuation, expiresAt: NOW });
        expect(outcome(token)).toBe('GH_ERR_CONTINUATION_TOKEN_EXPIRED');
      }),
    );
  });

  it('continue only the filters and page size they were issued for, with no page number', () => {
    const filter = { tenant: 'acme', userName: 'Bob', resource: { type: 'Api', id: 'x' } };
    const continuation: Continuation = {
      cursor: { timeMs: NOW, id: 3 },
      pageSize: 30,
      pageNumber: 2,
      filter: filterDigest(filter),
      expiresAt: NOW + 1,
    };
    // Names match in any case, as the filters themselves do.
    expect(() => assertContinues(continuation, { filter: { ...filter, userName: 'bob' } })).not.toThrow();
    expect(() => assertContinues(continuation, { filter, pageSize: 30 })).not.toThrow();
    const code = (request: Parameters<typeof assertContinues>[1]) => {
      try {
        assertContinues(continuation, request);
        return 'accepted';
      } catch (error) {
        return (error as HttpProblem).code;
      }
    };
    expect(code({ filter: { ...filter, userName: 'carol' } })).toBe('GH_ERR_CONTINUATION_TOKEN_MISMATCH');
    expect(code({ filter: { ...filter, resource: { type: 'Api', id: 'X' } } })).toBe(
      'GH_ERR_CONTINUATION_TOKEN_MISMATCH',
    );
    expect(code({ filter: { tenant: 'acme', userName: 'bob' } })).toBe('GH_ERR_CONTINUATION_TOKEN_MISMATCH');
    expect(code({ filter, pageSize: 50 })).toBe('GH_ERR_CONTINUATION_TOKEN_MISMATCH');
    expect(code({ filter, pageNumber: 2 })).toBe('GH_ERR_CONTINUATION_TOKEN_MISMATCH');
  });
});
