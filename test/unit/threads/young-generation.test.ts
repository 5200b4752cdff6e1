import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CHILD = fileURLToPath(new URL('./fixtures/young-generation-after-worker.ts', import.meta.url));

/** The child's young generation size before and after its allocations (it runs with `how` to start its worker). */
async function youngGenerationOfChild(
  how: 'startWorker' | 'new-worker',
): Promise<{ before: number; after: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, how], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`the child exited with ${code}: ${stderr}`);
  return JSON.parse(stdout) as { before: number; after: number };
}

describe('the young generation of a server that started a worker thread', () => {
  it('stays at its initial size when the worker started through startWorker', async () => {
    const { before, after } = await youngGenerationOfChild('startWorker');
    expect(after).toBe(before);
  });

  it('grows when a worker started with new Worker (the allocations are enough to grow it)', async () => {
    const { before, after } = await youngGenerationOfChild('new-worker');
    expect(after).toBeGreaterThan(before);
  });
});
