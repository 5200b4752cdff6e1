import { homedir } from 'node:os';
import { join } from 'node:path';

export const APP_NAME = 'Gatehouse';

/**
 * The per-user app-data folder named Gatehouse. The desktop app, `npm start` and every CLI command use it, so they
 * share one tenant; `GATEHOUSE_DATA_DIR` overrides it for all of them.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.GATEHOUSE_DATA_DIR) return env.GATEHOUSE_DATA_DIR;
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_NAME);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', APP_NAME);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), APP_NAME);
}

/** Where each part of the tenant lives inside a data dir. */
export function dataDirLayout(dataDir: string) {
  return {
    root: dataDir,
    lockFile: join(dataDir, 'gatehouse.lock'),
    configDir: join(dataDir, 'config'),
    keysDir: join(dataDir, 'keys'),
    auditDir: join(dataDir, 'audit'),
    monitoringDir: join(dataDir, 'monitoring'),
    logsDir: join(dataDir, 'logs'),
  };
}
