import type { BackupManifest } from '../../core/backup/backup-catalog.js';
import type { Backups } from '../../core/backup/backups.js';
import { ErrorCode } from '../../core/contracts/error-codes.js';
import {
  BackupOverviewSchema,
  BackupSchema,
  type Backup,
} from '../../core/contracts/tenant-settings-schemas.js';
import { unprocessable } from '../../core/http/problem.js';
import { defineRoute, type AnyRoute } from '../http/route.js';

const TAG = 'TenantSettings';
const PATH = '/api/v1/tenant/backups';

function toBackup(manifest: BackupManifest): Backup {
  return {
    name: manifest.name,
    kind: manifest.kind,
    ...(manifest.base !== undefined ? { base: manifest.base } : {}),
    takenAt: manifest.takenAt,
    bytes: manifest.bytes,
  };
}

/** The embedded database's backups in the tenant settings; undefined `backups` on PostgreSQL. */
export function backupRoutes(backups: Backups | undefined): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: PATH,
      activity: 'TenantSettings.View',
      tag: TAG,
      operationId: 'listBackups',
      summary: 'Backups of the embedded database, their sizes and the restorable window',
      responses: [{ status: 200, description: 'The backups.', schema: BackupOverviewSchema }],
      async handler() {
        if (!backups) {
          return {
            body: { engine: 'postgres' as const, backups: [], restorableWindow: null, totalBytes: 0 },
          };
        }
        const list = await backups.list();
        const window = await backups.window();
        return {
          body: {
            engine: 'sqlite' as const,
            directory: backups.directory,
            backups: list.map(toBackup),
            restorableWindow: window
              ? { from: new Date(window.fromMs).toISOString(), to: new Date(window.toMs).toISOString() }
              : null,
            totalBytes: list.reduce((sum, backup) => sum + backup.bytes, 0),
          },
        };
      },
    }),
    defineRoute({
      method: 'POST',
      path: PATH,
      activity: 'TenantSettings.Backup',
      tag: TAG,
      operationId: 'startBackup',
      summary: 'Back up the embedded database now',
      description:
        'A differential backup against the newest full one (a full one when that is a week old or there is none). Answers when the backup is written. On PostgreSQL, 422: use its own tools.',
      responses: [{ status: 200, description: 'The backup taken.', schema: BackupSchema }],
      problems: [422],
      async handler({ audit }) {
        if (!backups) {
          throw unprocessable(
            ErrorCode.GH_ERR_BACKUP_UNSUPPORTED,
            'This server keeps its data on PostgreSQL: back it up with pg_basebackup and WAL archiving (README: Backups).',
          );
        }
        const taken = await backups.take();
        audit.resources.push({ type: 'Backup', id: taken.name, name: taken.name });
        return { body: toBackup(taken) };
      },
    }),
  ];
}
