import { describe, expect, it } from 'vitest';
import { sharedUntilFailure } from '../../../src-server/core/async/shared-until-failure.js';

describe('sharedUntilFailure', () => {
  it('runs the load once for every caller while it succeeds', async () => {
    let runs = 0;
    const shared = sharedUntilFailure(() => Promise.resolve(++runs));
    const [first, second] = await Promise.all([shared(), shared()]);
    expect([first, second, await shared()]).toEqual([1, 1, 1]);
    expect(runs).toBe(1);
  });

  it('passes a failure to the callers waiting on it, and runs the load again at the next call', async () => {
    let runs = 0;
    const shared = sharedUntilFailure(() => {
      runs++;
      return runs === 1 ? Promise.reject(new Error('the database is away')) : Promise.resolve('key');
    });
    const waiting = [shared(), shared()];
    for (const call of waiting) await expect(call).rejects.toThrow('the database is away');
    expect(await shared()).toBe('key');
    expect(await shared()).toBe('key');
    expect(runs).toBe(2);
  });
});
