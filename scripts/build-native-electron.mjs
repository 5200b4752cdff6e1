// Builds better-sqlite3's native module for Electron's runtime: Electron embeds its own Node (another ABI than the
// Node that runs the CLI and the tests), so the desktop app loads its own copy, out/native/electron/. The package
// in node_modules stays built for Node. Needs Electron's headers (downloaded by node-gyp: online, or a local
// cache given with ELECTRON_HEADERS_DIR). Skips the build when the copy is already there for this version.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const require = createRequire(import.meta.url);
const electronVersion = JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version;
const sqlitePackage = dirname(require.resolve('better-sqlite3/package.json'));
const sqliteVersion = JSON.parse(readFileSync(join(sqlitePackage, 'package.json'), 'utf8')).version;
const target = join(root, 'out/native/electron');
const stamp = join(target, 'built-for.json');
const wanted = JSON.stringify({
  electron: electronVersion,
  betterSqlite3: sqliteVersion,
  arch: process.arch,
});

if (
  existsSync(stamp) &&
  readFileSync(stamp, 'utf8') === wanted &&
  existsSync(join(target, 'better_sqlite3.node'))
) {
  process.exit(0);
}
const staging = join(root, 'out/native/.staging');
rmSync(staging, { recursive: true, force: true });
mkdirSync(staging, { recursive: true });
cpSync(sqlitePackage, join(staging, 'better-sqlite3'), {
  recursive: true,
  filter: (source) => !source.includes(`${join(sqlitePackage, 'build')}`),
});
const headers = process.env.ELECTRON_HEADERS_DIR
  ? [`--nodedir=${process.env.ELECTRON_HEADERS_DIR}`]
  : ['--dist-url=https://electronjs.org/headers'];
const built = spawnSync(
  process.execPath,
  [
    require.resolve('node-gyp/bin/node-gyp.js'),
    'rebuild',
    '--release',
    `--target=${electronVersion}`,
    `--arch=${process.arch}`,
    '--runtime=electron',
    ...headers,
    `--directory=${join(staging, 'better-sqlite3')}`,
  ],
  { stdio: 'inherit' },
);
if (built.status !== 0) {
  process.stderr.write(`The native SQLite module could not be built for Electron ${electronVersion}.\n`);
  process.exit(built.status ?? 1);
}
mkdirSync(target, { recursive: true });
cpSync(
  join(staging, 'better-sqlite3/build/Release/better_sqlite3.node'),
  join(target, 'better_sqlite3.node'),
);
writeFileSync(stamp, wanted);
rmSync(staging, { recursive: true, force: true });
