// Builds the app when the sources are newer than the build output, so `npm start` and `npm run serve` always run
// current code without paying for a full build every time.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const outputs = ['out/server/cli.js', 'out/main/index.js', 'out/renderer/index.html'].map((p) =>
  join(root, p),
);
const sources = ['src-server', 'src-main', 'src-renderer', 'package.json', 'electron.vite.config.ts'].map(
  (p) => join(root, p),
);

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce(
    (newest, name) => Math.max(newest, newestMtime(join(path, name))),
    stat.mtimeMs,
  );
}

const oldestOutput = Math.min(...outputs.map((p) => (existsSync(p) ? statSync(p).mtimeMs : 0)));
if (oldestOutput === 0 || sources.some((p) => newestMtime(p) > oldestOutput)) {
  process.stderr.write('Building Gatehouse (sources changed since the last build)…\n');
  const result = spawnSync('npm', ['run', 'build', '--silent'], {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
