import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron as electron, expect, test } from '@playwright/test';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Electron's runtime, when `npm ci` could download it (it can't offline). */
function electronRuntime(): string | undefined {
  const dir = join(ROOT, 'node_modules/electron');
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const binary = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : undefined;
}

const runtime = electronRuntime();
const SKIP_REASON =
  "Electron's runtime is not installed here (node_modules/electron/dist is missing: it is downloaded on " +
  'install, which needs internet access); the same console is tested in Chromium against gatehouse serve.';

test.describe('desktop app', () => {
  test('starts the embedded server, opens the signed-in console and stops cleanly', async () => {
    if (runtime === undefined) {
      // The list reporter shows a skip without its reason; test output it does show.
      console.log(`Skipped: ${SKIP_REASON}`);
      test.skip(true, SKIP_REASON);
    }
    // The database module built for Electron's own Node, as npm start builds it.
    const native = spawnSync(process.execPath, [join(ROOT, 'scripts/build-native-electron.mjs')], {
      stdio: 'inherit',
    });
    expect(native.status, 'scripts/build-native-electron.mjs').toBe(0);
    const dataDir = await mkdtemp(join(tmpdir(), 'gatehouse-electron-'));
    try {
      const app = await electron.launch({
        executablePath: runtime,
        args: [ROOT],
        env: { ...process.env, GATEHOUSE_DATA_DIR: dataDir, Logging__Level: 'warn' },
      });
      const window = await app.firstWindow();
      await expect(window.getByRole('heading', { level: 1, name: 'APIs' })).toBeVisible();
      const settings = await window.evaluate(() => ({
        bridge: Object.keys((globalThis as unknown as { gatehouse: object }).gatehouse).sort(),
        nodeIntegration: typeof (globalThis as { require?: unknown }).require,
      }));
      expect(settings).toEqual({
        bridge: ['openFile', 'revealDataFolder', 'saveFile', 'session'],
        nodeIntegration: 'undefined',
      });
      await app.close();
      // A graceful stop releases the data dir's lock.
      expect(existsSync(join(dataDir, 'gatehouse.lock'))).toBe(false);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
