import { getPriority } from 'node:os';
import { describe, expect, it } from 'vitest';
import { lowerThisThreadPriority } from '../../../src-server/control/apis/import-pipeline/background-priority.js';

// This file's test process lowers its own priority: nothing else runs in it.
describe.runIf(process.platform === 'linux')('lowerThisThreadPriority', () => {
  it('lowers the thread by the steps given from what it had, down to 19 at most', () => {
    const inherited = getPriority();
    expect(lowerThisThreadPriority(2)).toBe(true);
    expect(getPriority()).toBe(Math.min(19, inherited + 2));
    expect(lowerThisThreadPriority(40)).toBe(true);
    expect(getPriority()).toBe(19);
  });
});
