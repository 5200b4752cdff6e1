import { describe, expect, it } from 'vitest';
import { ThrottleCounters } from '../../../src-server/gateway/policies/throttle.js';

const MINUTE = 60_000;

describe('throttle counters (sliding window)', () => {
  it('allows up to the limit, then refuses with a Retry-After that really frees a slot', () => {
    const counters = new ThrottleCounters();
    const start = 10 * MINUTE; // the start of a window
    for (let i = 0; i < 3; i++) expect(counters.take('k', 3, 'minute', start + i)).toEqual({ allowed: true });
    const refused = counters.take('k', 3, 'minute', start + 10);
    expect(refused.allowed).toBe(false);
    if (refused.allowed) return;
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(120);
    const later = start + 10 + refused.retryAfterSeconds * 1000;
    expect(counters.take('k', 3, 'minute', later)).toEqual({ allowed: true });
  });

  it('slides: the previous window counts in proportion to its overlap', () => {
    const counters = new ThrottleCounters();
    const start = 20 * MINUTE;
    for (let i = 0; i < 10; i++) counters.take('k', 10, 'minute', start + i);
    // A quarter into the next window three quarters of the previous 10 still count: 7.5 + 0 < 10 allows two more.
    const quarter = start + MINUTE + MINUTE / 4;
    expect(counters.take('k', 10, 'minute', quarter).allowed).toBe(true);
    expect(counters.take('k', 10, 'minute', quarter).allowed).toBe(true);
    expect(counters.take('k', 10, 'minute', quarter).allowed).toBe(false);
    // Two windows later everything has slid out.
    for (let i = 0; i < 10; i++)
      expect(counters.take('k', 10, 'minute', start + 3 * MINUTE + i).allowed).toBe(true);
  });

  it('counts identities and periods separately and stays bounded', () => {
    const counters = new ThrottleCounters(100);
    expect(counters.take('a', 1, 'minute', 0).allowed).toBe(true);
    expect(counters.take('b', 1, 'minute', 0).allowed).toBe(true);
    expect(counters.take('a', 1, 'hour', 0).allowed).toBe(true);
    expect(counters.take('a', 1, 'minute', 1).allowed).toBe(false);
    for (let i = 0; i < 1000; i++) counters.take(`client-${i}`, 5, 'day', 0);
    expect(counters.size).toBeLessThanOrEqual(100);
  });

  it('refused requests do not count', () => {
    const counters = new ThrottleCounters();
    const start = 30 * MINUTE;
    counters.take('k', 1, 'minute', start);
    for (let i = 0; i < 50; i++) counters.take('k', 1, 'minute', start + 1);
    // Two windows later the refused attempts left nothing behind.
    expect(counters.take('k', 1, 'minute', start + 2 * MINUTE).allowed).toBe(true);
  });
});
