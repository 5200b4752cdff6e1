// `npm start`: the desktop app when Electron's runtime is available; otherwise the same console for a browser.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const built = spawnSync(process.execPath, [join(root, 'scripts/ensure-built.mjs')], { stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

function electronBinary() {
  const dir = join(root, 'node_modules/electron');
  const pathFile = join(dir, 'path.txt');
  const binary = () => (existsSync(pathFile) ? join(dir, 'dist', readFileSync(pathFile, 'utf8')) : undefined);
  if (binary() && existsSync(binary())) return binary();
  // Electron downloads its runtime on first use; offline that fails, which is fine: we fall back below.
  const download = spawnSync(process.execPath, [join(dir, 'install.js')], {
    stdio: 'ignore',
    timeout: 120_000,
  });
  return download.status === 0 && binary() && existsSync(binary()) ? binary() : undefined;
}

function run(command, args) {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit' });
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

/** better-sqlite3 for Electron's own Node (scripts/build-native-electron.mjs); false when it can't be built. */
function nativeModulesForElectron() {
  const built = spawnSync(process.execPath, [join(root, 'scripts/build-native-electron.mjs')], {
    stdio: 'inherit',
  });
  return built.status === 0;
}

const electron = process.env.GATEHOUSE_NO_ELECTRON ? undefined : electronBinary();
if (electron && nativeModulesForElectron()) {
  run(electron, [root, ...process.argv.slice(2)]);
} else {
  process.stderr.write(
    electron
      ? "The database module could not be built for Electron's runtime; serving the console for a browser instead.\n"
      : "Electron's runtime is not installed and could not be downloaded; serving the console for a browser instead.\n",
  );
  run(process.execPath, [join(root, 'out/server/cli.js'), 'serve', ...process.argv.slice(2)]);
}
