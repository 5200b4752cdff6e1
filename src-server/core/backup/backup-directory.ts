import { join } from 'node:path';
import type { SettingsSnapshot } from '../settings/settings.js';

/** `Backup:Directory`, or `backups/` in the data dir. */
export function backupDirectoryOf(dataDir: string, settings: SettingsSnapshot): string {
  return settings.str('Backup:Directory').trim() || join(dataDir, 'backups');
}
