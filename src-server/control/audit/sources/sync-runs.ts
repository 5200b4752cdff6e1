import type { AuditStore } from '../../../core/audit/audit-entry.js';
import type { AuditSourceStore } from '../../../core/audit/sources/audit-source-store.js';
import type { Logger } from '../../../core/logging/logger.js';
import { syncAuditSource } from '../sync/audit-sync.js';

/**
 * The syncs running in this server, one per source at a time. Each saves its progress in the source's row after
 * every page, so `GET /api/v1/audit-sources/{name}` shows it; a second start while one runs joins it.
 */
export class SyncRuns {
  private readonly running = new Map<string, { done: Promise<void>; controller: AbortController }>();

  constructor(
    private readonly sources: AuditSourceStore,
    private readonly auditStore: AuditStore,
    private readonly logger: Logger,
  ) {}

  isRunning(name: string): boolean {
    return this.running.has(name);
  }

  /** Starts a sync of the source unless one runs; resolves once its first progress is saved. */
  start(name: string): void {
    if (this.running.has(name)) return;
    const controller = new AbortController();
    const done = syncAuditSource(name, {
      sources: this.sources,
      auditStore: this.auditStore,
      signal: controller.signal,
    })
      .then((summary) => {
        // The summary names no secret: counts, times and the peer's status.
        this.logger.info({ source: name, ...summary }, 'audit sync finished');
      })
      .catch((error: unknown) => {
        this.logger.warn({ source: name, err: error }, 'audit sync failed');
      })
      .finally(() => this.running.delete(name));
    this.running.set(name, { done, controller });
  }

  /** Stops every running sync (the server stops); they resume at their next start. */
  async stopAll(): Promise<void> {
    for (const run of this.running.values()) run.controller.abort();
    await Promise.allSettled([...this.running.values()].map((run) => run.done));
  }
}
