import { userInfo } from 'node:os';
import type { AuditSyncSummary } from '../core/contracts/audit-source-schemas.js';
import { syncAuditSource } from '../control/audit/sync/audit-sync.js';
import { withOfflineTenant } from './offline-tenant.js';
import { CommandError } from './usage-error.js';

function describe(name: string, tenant: string, summary: AuditSyncSummary): string {
  const counts =
    `${summary.added} added, ${summary.duplicates} already present, ${summary.skipped} skipped, ` +
    `${summary.pages} pages, ${summary.retries} retries, ${summary.seconds.toFixed(1)} s`;
  const how = summary.resumed ? ' (resumed)' : '';
  if (summary.status === 'completed') return `Synced ${name} into tenant ${tenant}${how}: ${counts}.`;
  return `Sync of ${name} stopped${how}: ${counts}. ${summary.error ?? ''}`.trimEnd();
}

/**
 * `gatehouse audit sync [--source NAME]`: each source in turn, offline (the data-dir lock is held). Ctrl+C stops
 * the walk after the page being read; what was read is kept and the next run resumes.
 */
export async function syncSources(
  dataDir: string,
  only: string | undefined,
  out: NodeJS.WritableStream,
  err: NodeJS.WriteStream,
): Promise<void> {
  const controller = new AbortController();
  const interrupt = () => {
    err.write('\nInterrupted: stopping after the current page…\n');
    controller.abort();
  };
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  try {
    const failed = await withOfflineTenant(dataDir, 'audit sync', async (tenant) => {
      const sources = (await tenant.auditSources.list()).filter(
        (source) => only === undefined || source.name === only.toLowerCase(),
      );
      if (only !== undefined && sources.length === 0) throw new CommandError(`No source is named ${only}.`);
      if (sources.length === 0) {
        out.write('No sources to sync. Add one with "gatehouse source add".\n');
        return 0;
      }
      let failures = 0;
      for (const source of sources) {
        if (controller.signal.aborted) break;
        const summary = await syncAuditSource(source.name, {
          sources: tenant.auditSources,
          auditStore: tenant.auditStore,
          signal: controller.signal,
          onProgress: (progress) => {
            if (err.isTTY)
              err.write(
                `\r${source.name}: page ${progress.pages}, ${progress.added} added, ${progress.duplicates} already present…`,
              );
          },
        });
        if (err.isTTY) err.write('\r\x1b[K');
        out.write(`${describe(source.name, source.tenant, summary)}\n`);
        await tenant.recorder.recordOfflineAction(
          'AuditSources.Sync',
          `cli:${userInfo().username}`,
          { name: source.name, tenant: source.tenant, ...summary },
          [{ type: 'AuditSource', id: source.name, name: source.name }],
        );
        if (summary.status !== 'completed') failures++;
      }
      return failures;
    });
    if (failed > 0) {
      throw new CommandError(
        `${failed === 1 ? 'A sync' : `${failed} syncs`} stopped early; run "gatehouse audit sync" again to resume.`,
      );
    }
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
  }
}
