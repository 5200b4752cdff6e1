import { describe, expect, it } from 'vitest';
import { youngGenerationOfChild } from './young-generation-child.js';

describe('the young generation of a server that started a worker thread', () => {
  it('stays at its initial size when the worker started through startWorker', async () => {
    const { before, after } = await youngGenerationOfChild(['startWorker']);
    expect(after).toBe(before);
  });

  it('grows when a worker started with new Worker (the allocations are enough to grow it)', async () => {
    const { before, after } = await youngGenerationOfChild(['new-worker']);
    expect(after).toBeGreaterThan(before);
  });
});
