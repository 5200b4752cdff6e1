import { mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The user's cache folder for Gatehouse (`$XDG_CACHE_HOME/gatehouse`, `~/Library/Caches/gatehouse` on macOS,
 * `%LOCALAPPDATA%\gatehouse` on Windows), created owner-only. Undefined when it cannot be made, or when it is not
 * the user's own or others can write to it: what is kept there (V8's compiled code) runs as trusted code.
 */
export function userCacheFolder(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const base =
    process.platform === 'win32'
      ? env.LOCALAPPDATA
      : process.platform === 'darwin'
        ? join(homedir(), 'Library', 'Caches')
        : env.XDG_CACHE_HOME || join(homedir(), '.cache');
  if (!base) return undefined;
  const folder = join(base, 'gatehouse');
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    if (process.platform === 'win32') return folder;
    const { uid, mode } = statSync(folder);
    if (uid !== process.getuid?.() || (mode & 0o022) !== 0) return undefined;
    return folder;
  } catch {
    return undefined;
  }
}
