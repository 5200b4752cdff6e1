import { execFile } from 'node:child_process';
import { chmod, mkdir, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp-dir.js';
import { userCacheFolder } from '../../../src-server/core/code-cache/user-cache-folder.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const RUNNER = 'test/unit/code-cache/fixtures/run-with-code-cache.ts';
// A CommonJS script: its require, module, __filename and __dirname, as Node's loader gives them.
const SCRIPT = `
const { basename } = require('node:path');
module.exports.name = basename(__filename);
process.stdout.write('ran ' + module.exports.name + ' in ' + basename(__dirname) + '\\n');
`;

let dir: { path: string; remove: () => Promise<void> };
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(() => dir.remove());

async function runScript(script: string, folder: string, heap?: 'small'): Promise<string[]> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', RUNNER, script, folder, '0', ...(heap ? [heap] : [])],
    { cwd: ROOT },
  );
  return stdout.trim().split('\n');
}

async function cacheFiles(folder: string): Promise<string[]> {
  return (await readdir(folder)).filter((name) => name.endsWith('.v8'));
}

describe('a script run with a code cache', () => {
  it('compiles from source the first time, writes the cache owner-only, and runs from it the next time', async () => {
    const script = join(dir.path, 'served.cjs');
    await writeFile(script, SCRIPT);
    const folder = join(dir.path, 'cache');
    await mkdir(folder, { mode: 0o700 });

    const dirName = dir.path.split(/[\\/]/).pop();
    expect(await runScript(script, folder)).toEqual([`ran served.cjs in ${dirName}`, 'compiled']);
    const [file] = await cacheFiles(folder);
    expect(file).toBeDefined();
    if (process.platform !== 'win32') expect((await stat(join(folder, file!))).mode & 0o777).toBe(0o600);

    expect(await runScript(script, folder)).toEqual([`ran served.cjs in ${dirName}`, 'from cache']);
  });

  it('runs from source when the cache file is damaged, and replaces it', async () => {
    const script = join(dir.path, 'served.cjs');
    await writeFile(script, SCRIPT);
    const folder = join(dir.path, 'cache');
    await mkdir(folder, { mode: 0o700 });
    await runScript(script, folder);
    const [file] = await cacheFiles(folder);
    const damaged = Buffer.alloc((await stat(join(folder, file!))).size, 0x5a);
    await writeFile(join(folder, file!), damaged);

    expect((await runScript(script, folder)).at(-1)).toBe('compiled');
    expect((await runScript(script, folder)).at(-1)).toBe('from cache');
  });

  it('keeps a cache of its own for a changed script', async () => {
    const script = join(dir.path, 'served.cjs');
    const folder = join(dir.path, 'cache');
    await mkdir(folder, { mode: 0o700 });
    await writeFile(script, SCRIPT);
    await runScript(script, folder);
    await writeFile(script, `${SCRIPT}\nmodule.exports.changed = true;\n`);

    expect((await runScript(script, folder)).at(-1)).toBe('compiled');
    expect(await cacheFiles(folder)).toHaveLength(2);
  });

  it('keeps a cache for each heap sizing, so that switching between them runs from cache', async () => {
    const script = join(dir.path, 'served.cjs');
    const folder = join(dir.path, 'cache');
    await mkdir(folder, { mode: 0o700 });
    await writeFile(script, SCRIPT);
    expect((await runScript(script, folder, 'small')).at(-1)).toBe('compiled');
    expect((await runScript(script, folder)).at(-1)).toBe('compiled');

    expect((await runScript(script, folder, 'small')).at(-1)).toBe('from cache');
    expect((await runScript(script, folder)).at(-1)).toBe('from cache');
    expect(await cacheFiles(folder)).toHaveLength(2);
  });

  it("keeps the newest four scripts' caches and removes older ones, leaving other files alone", async () => {
    const script = join(dir.path, 'served.cjs');
    const folder = join(dir.path, 'cache');
    await mkdir(folder, { mode: 0o700 });
    const older = ['1', '2', '3', '4', '5'].map((digit) => `script-${digit.repeat(32)}.v8`);
    for (const [k, name] of older.entries()) {
      await writeFile(join(folder, name), 'old');
      // 1 is the oldest: written k + 1 hours ago, newest last.
      const writtenS = Date.now() / 1000 - (older.length - k) * 3600;
      await utimes(join(folder, name), writtenS, writtenS);
    }
    await writeFile(join(folder, 'notes.txt'), 'not a cache');
    await writeFile(script, SCRIPT);
    await runScript(script, folder);

    const left = await readdir(folder);
    expect(left).toHaveLength(5);
    expect(left).toContain('notes.txt');
    expect(left.filter((name) => older.includes(name)).sort()).toEqual(older.slice(2));
  });
});

// XDG_CACHE_HOME is where Linux keeps it (macOS and Windows have folders of their own).
describe.skipIf(process.platform !== 'linux')('the user cache folder', () => {
  it('is created owner-only under XDG_CACHE_HOME', async () => {
    const folder = userCacheFolder({ XDG_CACHE_HOME: dir.path });
    expect(folder).toBe(join(dir.path, 'gatehouse'));
    expect((await stat(folder!)).mode & 0o777).toBe(0o700);
  });

  it('is not used when others can write to it', async () => {
    await mkdir(join(dir.path, 'gatehouse'));
    await chmod(join(dir.path, 'gatehouse'), 0o777);
    expect(userCacheFolder({ XDG_CACHE_HOME: dir.path })).toBeUndefined();
  });
});
