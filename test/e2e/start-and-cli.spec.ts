import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const shell = promisify(execFile);

let dataDir: string;
let started: ChildProcess;
let output = '';

/** The environment of a terminal in which the user exported GATEHOUSE_DATA_DIR, as the README suggests. */
const terminal = () => ({ ...process.env, GATEHOUSE_DATA_DIR: dataDir, GATEHOUSE_NO_ELECTRON: '1' });

/** A command as the README writes it (no --data-dir), run from the clone in that terminal. */
async function run(command: string): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await shell('sh', ['-c', command], { cwd: ROOT, env: terminal() });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}

test.beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'gatehouse-start-'));
  // `npm start` where Electron can't run: the same server as `gatehouse serve`, here on free ports.
  started = spawn(process.execPath, ['scripts/start.mjs', '--port', '0', '--gateway-port', '0'], {
    cwd: ROOT,
    env: { ...terminal(), Logging__Level: 'warn', Shutdown__ReadinessGraceSeconds: '0' },
  });
  started.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  started.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 120_000;
  while (!output.includes('Press Ctrl+C to stop')) {
    if (started.exitCode !== null || Date.now() > deadline)
      throw new Error(`npm start did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});
test.afterAll(async () => {
  if (started.exitCode === null) {
    started.kill('SIGTERM');
    await new Promise((resolve) => started.once('exit', resolve));
  }
  await rm(dataDir, { recursive: true, force: true });
});

test('npm start and the README’s commands share one data dir: tokens and links work, a second server says who holds it', async ({
  page,
}) => {
  test.slow();
  expect(output).toContain(`data dir: ${dataDir}`);
  const controlPanelUrl = /Control Panel:\s+(\S+)/.exec(output)![1]!;

  const token = await run('npx gatehouse token --roles Operator --user alice');
  expect(token.code).toBe(0);
  const me = await fetch(`${controlPanelUrl}/api/v1/me`, {
    headers: { Authorization: `Bearer ${token.stdout.trim()}` },
  });
  expect(await me.json()).toMatchObject({ userName: 'alice', roles: ['Operator'] });

  const link = await run('npx gatehouse link');
  expect(link.code).toBe(0);
  await page.goto(/(http:\/\/\S+#signin=\S+)/.exec(link.stdout)![1]!);
  await expect(page.getByTestId('signed-in-user')).toBeVisible();

  const second = await run('npx gatehouse serve --port 0 --gateway-port 0');
  expect(second.code).toBe(1);
  // One line, naming the process; no port is tried, so none clashes.
  expect(second.stderr.trim().split('\n')).toEqual([
    expect.stringMatching(
      new RegExp(
        `^The data directory ${dataDir} is in use by "gatehouse serve" \\(pid \\d+, since [^)]+\\)\\.`,
      ),
    ),
  ]);
});
