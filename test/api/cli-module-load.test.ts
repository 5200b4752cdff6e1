import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FAILING_LOAD = 'test/fixtures/cli/echo-module-fails-to-load.mjs';

function runWithBrokenEchoModule(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--import', `./${FAILING_LOAD}`, 'src-server/cli.ts', ...args],
      { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('a command module that fails to load', () => {
  it.each([[['echo', '--port', '0']], [['echo', '--help']]])(
    'is reported by the CLI like a failing command, naming the command (%j)',
    async (args) => {
      const { code, stderr } = await runWithBrokenEchoModule(args);
      expect(code).toBe(1);
      expect(stderr).toMatch(
        /^gatehouse echo failed: Error: simulated: echo-command\.js could not be loaded/,
      );
    },
    30_000,
  );
});
