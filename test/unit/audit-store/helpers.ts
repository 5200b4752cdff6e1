import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type {
  AuditEntry,
  AuditFilter,
  AuditQuery,
  AuditStore,
  NewAuditEntry,
} from '../../../src-server/core/audit/audit-entry.js';
import { openAuditStore, type OpenAuditStoreOptions } from '../../../src-server/core/audit/store/index.js';

export const DAY_MS = 86_400_000;
export const BASE_MS = Date.parse('2025-03-01T00:00:00.000Z');

export interface Warning {
  message: string;
  details: Record<string, unknown>;
}

/** A temp directory plus a way to open stores in it that records their warnings. */
export class StoreFixture {
  readonly warnings: Warning[] = [];
  private readonly open: AuditStore[] = [];
  private readonly extraDirs: string[] = [];

  private constructor(readonly dir: string) {}

  static async create(): Promise<StoreFixture> {
    return new StoreFixture(await mkdtemp(path.join(os.tmpdir(), 'gatehouse-audit-')));
  }

  async openStore(options: Partial<OpenAuditStoreOptions> = {}): Promise<AuditStore> {
    const store = await openAuditStore({
      dir: this.dir,
      onWarning: (message, details) => this.warnings.push({ message, details }),
      ...options,
    });
    this.open.push(store);
    return store;
  }

  /** Another temporary directory, removed with the fixture. */
  async scratchDir(): Promise<string> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'gatehouse-audit-scratch-'));
    this.extraDirs.push(dir);
    return dir;
  }

  async dispose(): Promise<void> {
    try {
      const closed = await Promise.allSettled(this.open.map((store) => store.close()));
      const failures = closed.filter((result) => result.status === 'rejected');
      if (failures.length > 0)
        throw new AggregateError(
          failures.map((f): unknown => f.reason),
          'closing a test store failed',
        );
    } finally {
      for (const dir of [this.dir, ...this.extraDirs]) await rm(dir, { recursive: true, force: true });
    }
  }
}

export function entryAt(timeMs: number, overrides: Partial<NewAuditEntry> = {}): NewAuditEntry {
  return {
    actionName: 'Process.Deploy',
    userName: 'alice',
    timestamp: new Date(timeMs).toISOString(),
    parameters: { processId: 'p-1' },
    resources: [],
    category: 'general',
    ...overrides,
  };
}

/** The specification of `query`, written the obvious way. */
export function referenceQuery(
  entries: readonly AuditEntry[],
  query: AuditQuery,
): { ids: number[]; totalCount: number } {
  const matching = referenceFilter(entries, query);
  const start = (query.pageNumber - 1) * query.pageSize;
  return { ids: matching.slice(start, start + query.pageSize).map((e) => e.id), totalCount: matching.length };
}

export function referenceFilter(entries: readonly AuditEntry[], filter: AuditFilter): AuditEntry[] {
  return entries
    .filter((entry) => {
      const time = Date.parse(entry.timestamp);
      if (filter.startMs !== undefined && time < filter.startMs) return false;
      if (filter.endMs !== undefined && time >= filter.endMs) return false;
      if (
        filter.actionName !== undefined &&
        entry.actionName.toLowerCase() !== filter.actionName.toLowerCase()
      ) {
        return false;
      }
      if (filter.userName !== undefined && entry.userName.toLowerCase() !== filter.userName.toLowerCase())
        return false;
      return true;
    })
    .sort((a, b) => Date.parse(b.timestamp) - Date.parse(a.timestamp) || b.id - a.id);
}

export async function allIds(store: AuditStore, filter: AuditFilter = {}): Promise<number[]> {
  const ids: number[] = [];
  for await (const entry of store.iterate(filter)) ids.push(entry.id);
  return ids;
}
