import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const FIXTURES = new URL('./fixtures/', import.meta.url);

/**
 * Runs a fixture script of this folder in a child process under tsx (V8's flags are the process's), with `nodeArgs`
 * before it, and returns what it printed; a non-zero exit throws with its stderr.
 */
export async function outputOfFixture(
  fixture: string,
  args: string[],
  nodeArgs: string[] = [],
): Promise<string> {
  const script = fileURLToPath(new URL(fixture, FIXTURES));
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`the child exited with ${code}: ${stderr}`);
  return stdout;
}

/**
 * Runs a fixture in a child process and returns the young generation's size it printed before and after its
 * allocations. The first argument names the fixture's case.
 */
export async function youngGenerationOfChild(
  args: string[],
  fixture = 'young-generation-after-worker.ts',
): Promise<{ before: number; after: number }> {
  return JSON.parse(await outputOfFixture(fixture, args)) as { before: number; after: number };
}
