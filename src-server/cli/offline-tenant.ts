import { instanceIdOf } from '../core/instance/instance-id.js';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { acquireDataDirLock, DataDirLockedError } from '../core/data-dir/data-dir-lock.js';
import { dataDirLayout, defaultDataDir } from '../core/data-dir/default-data-dir.js';
import { createLogger } from '../core/logging/logger.js';
import { openTenant, type Tenant } from '../app/tenant.js';
import { SettingsSource } from '../core/settings/settings.js';
import { CommandError } from './usage-error.js';

export function dataDirOption(value: string | undefined): string {
  return resolve(value ?? defaultDataDir());
}

/**
 * Runs an offline command that writes to a data dir: it takes the data-dir lock, so it refuses to run beside a
 * server (naming its pid) and a server cannot start while it runs.
 */
export async function withOfflineTenant<T>(
  dataDir: string,
  command: string,
  run: (tenant: Tenant) => Promise<T>,
): Promise<T> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const layout = dataDirLayout(dataDir);
  let lock;
  try {
    lock = await acquireDataDirLock(dataDir, layout.lockFile, command);
  } catch (error) {
    if (error instanceof DataDirLockedError) throw new CommandError(error.message, error);
    throw error;
  }
  try {
    const settings = await new SettingsSource({ dataDir }).resolve();
    const tenant = await openTenant({
      dataDir,
      logger: createLogger('warn', process.stderr),
      now: () => new Date(),
      connectionString: settings.str('ConnectionStrings:Gatehouse'),
      secretsKeyFile: settings.str('Secrets:KeyFile'),
      instance: instanceIdOf(settings.str('Instance:Id')),
    });
    try {
      return await run(tenant);
    } finally {
      await tenant.close();
    }
  } finally {
    await lock.release();
  }
}
