import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface PackageInfo {
  root: string;
  version: string;
  /** package.json's `license`. */
  license: string;
}

let cached: PackageInfo | undefined;

/**
 * Gatehouse's package folder, found by walking up from this module: the same answer whether the code runs from
 * `src-server` (tests), `out/server` (CLI) or `out/main` (Electron bundle).
 */
export function packageInfo(): PackageInfo {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as {
        name?: string;
        version?: string;
        license?: string;
      };
      if (parsed.name === 'gatehouse') {
        cached = { root: dir, version: parsed.version ?? '0.0.0', license: parsed.license ?? 'UNLICENSED' };
        return cached;
      }
    }
    const parent = dirname(dir);
    if (parent === dir) {
      cached = { root: process.cwd(), version: '0.0.0', license: 'UNLICENSED' };
      return cached;
    }
    dir = parent;
  }
}

/** Where `electron-vite build` puts the console. */
export function defaultUiDir(): string {
  return join(packageInfo().root, 'out', 'renderer');
}
