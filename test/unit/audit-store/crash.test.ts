import { spawn } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { ENGINES, untilOtherClientsLeft } from '../../helpers/test-database.js';
import { allIds, StoreFixture } from './helpers.js';

const CHILD = fileURLToPath(new URL('./fixtures/append-until-killed.ts', import.meta.url));

/** Runs the child until it has acknowledged appends, kills it with SIGKILL, returns the acknowledged ids. */
async function runAndKill(
  fixture: StoreFixture,
  killAfterMs: number,
): Promise<{ acknowledged: number[]; stderr: string }> {
  const args = [CHILD, fixture.dataDir, ...(fixture.connectionString ? [fixture.connectionString] : [])];
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('exit', (_code, signal) => resolve(signal)),
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      // From the first acknowledged append, not from 'ready': at load 11 on PostgreSQL the first append took
      // longer than the shortest window below, and a round that acknowledged nothing tests nothing.
      const wasWriting = /^\d+$/m.test(stdout);
      stdout += chunk.toString();
      if (!wasWriting && /^\d+$/m.test(stdout)) {
        setTimeout(() => {
          child.kill('SIGKILL');
          resolve();
        }, killAfterMs);
      }
    });
    child.on('exit', (code) => reject(new Error(`child exited on its own (${code}): ${stderr}`)));
  });
  const signal = await exited;
  expect(signal).toBe('SIGKILL');
  // Only complete lines count: a line cut by the kill was never fully acknowledged to us.
  const lines = stdout.split('\n').slice(0, -1);
  const acknowledged = lines.filter((line) => /^\d+$/.test(line)).map(Number);
  return { acknowledged, stderr };
}

describe.each(ENGINES)('kill -9 on %s', (engine) => {
  let fixture: StoreFixture;
  beforeEach(async () => {
    fixture = await StoreFixture.create(engine);
  });
  afterEach(async () => {
    await fixture.dispose();
  });

  it('keeps every acknowledged append across repeated hard kills', { timeout: 120_000 }, async () => {
    const acknowledged: number[] = [];
    for (let round = 0; round < 3; round++) {
      const result = await runAndKill(fixture, 300 + Math.floor(Math.random() * 900));
      expect(result.stderr).not.toMatch(/Error/);
      acknowledged.push(...result.acknowledged);
      expect(result.acknowledged.length).toBeGreaterThan(0);
    }
    if (fixture.connectionString) await untilOtherClientsLeft(fixture.connectionString);
    const store = await fixture.openStore();
    const present = new Set(await allIds(store));
    const missing = acknowledged.filter((id) => !present.has(id));
    expect(missing).toEqual([]);
    // The counts were written in the same transactions as the rows: they still agree after the kills.
    expect(await store.count()).toBe(present.size);
  });
});
