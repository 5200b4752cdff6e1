import type { ImportBatch } from './import-batch.js';
import type {
  AuditAgentGroup,
  AuditCategory,
  AuditEntry,
  AuditResource,
} from '../contracts/audit-schemas.js';
import type {
  AuditTimeline,
  AuditTimelineInterval,
  AuditTimelineSplit,
} from '../contracts/audit-timeline-schemas.js';

/**
 * A record of the audit trail is the one the API returns (`AuditEntrySchema`): `id` is the store's monotonic
 * sequence number, `timestamp` ISO 8601 UTC with milliseconds, `parameters` the request's parameters with secrets
 * masked, `userName` the user, the application registration or `system` for agent events.
 */
export type { AuditAgentGroup, AuditCategory, AuditEntry, AuditResource };

export type NewAuditEntry = Omit<AuditEntry, 'id'>;

/** Filters of the list endpoint, already validated. Times are epoch milliseconds. */
export interface AuditFilter {
  /** The tenant's trail (`audit-tenant.ts`): Gatehouse's own when absent, every tenant's with `ALL_TENANTS`. */
  tenant?: string;
  /** Inclusive. */
  startMs?: number;
  /** Exclusive. */
  endMs?: number;
  /** Exact match, case-insensitive. */
  actionName?: string;
  /** Exact match, case-insensitive. */
  userName?: string;
  /** The instance that recorded it, exact match. */
  instance?: string;
  /** Entries that name this resource among their `resources` (type and id exactly). */
  resource?: Pick<AuditResource, 'type' | 'id'>;
  /**
   * Full-text search of the parameters' values: entries holding every word of it (words as `searchWords` splits
   * them), each as the start of a word. Masked secrets are stored as the mask, so they are never found.
   */
  search?: string;
}

/** A position in list order (timestamp descending, then id descending): a page after it starts past this entry. */
export interface AuditCursor {
  timeMs: number;
  id: number;
}

export interface AuditSeekPage extends AuditPage {
  /** Where the next page starts, when there are entries after this page. */
  next?: AuditCursor;
}

export interface AuditQuery extends AuditFilter {
  /** 1-based. */
  pageNumber: number;
  pageSize: number;
}

export interface AuditPage {
  /** Ordered by timestamp descending, then id descending. */
  items: AuditEntry[];
  totalCount: number;
}

/**
 * A page as the list endpoint writes it: each entry as the JSON text of its `AuditEntry` (the stored text with the
 * id spliced in, not parsed and serialized again), and where the page ends.
 */
export interface AuditJsonPage {
  /** Ordered by timestamp descending, then id descending. */
  items: string[];
  totalCount: number;
  /** The page's last entry, when it has one. */
  last?: AuditCursor;
}

export interface AuditJsonSeekPage extends AuditJsonPage {
  /** Where the next page starts, when there are entries after this page. */
  next?: AuditCursor;
}

export interface RetentionPolicy {
  now: number;
  /** General entries, and configuration entries whose resource no longer exists, older than this are removed. */
  maxAgeMs: number;
  /** Agent events kept per agent group (newest first). */
  agentWindow: number;
  /** Whether a configuration entry's resource still exists; entries of live resources are kept forever. */
  isResourceLive: (resource: AuditResource) => boolean;
  /** Once aborted, the run stops before its next batch; what is left waits for the next run. */
  signal?: AbortSignal;
}

export interface ImportProgress {
  read: number;
  added: number;
  duplicates: number;
  /** Set in the report sent before an import builds the indexes it deferred (`ImportOptions.offline`). */
  indexing?: true;
}

export type ImportResult = ImportProgress;

export interface ImportOptions {
  /** The trail the entries go into; Gatehouse's own when absent. De-duplication is per tenant. */
  tenant?: string;
  /**
   * The caller holds the data dir alone (the offline `audit import`): on SQLite, an import that grows large against
   * the trail it lands in may drop some indexes and build them again at its end (`audit-import.ts`).
   */
  offline?: boolean;
}

export interface AuditTimelineOptions {
  splitBy: AuditTimelineSplit;
  /** Chosen from the range when absent (`chooseInterval`). */
  interval?: AuditTimelineInterval;
}

export interface AuditTenantSummary {
  name: string;
  entries: number;
  /** Timestamp of the newest entry, ISO 8601, when there is one. */
  newest?: string;
}

/**
 * The durable audit trail. Append-only from the outside: the only removals are retention and an operator's
 * explicit removal of one resource's configuration history.
 */
export interface AuditStore {
  /** Resolves once the entry is durable on disk (fsync'd). */
  append: (entry: NewAuditEntry) => Promise<AuditEntry>;
  /**
   * Bulk import; entries whose content already exists are skipped (idempotent). Durable when it resolves. An
   * asynchronous source may yield arrays of entries, which saves a promise per entry on large files.
   */
  importEntries: (
    entries: AsyncIterable<NewAuditEntry | readonly NewAuditEntry[]> | Iterable<NewAuditEntry>,
    onProgress?: (progress: ImportProgress) => void,
    options?: ImportOptions,
  ) => Promise<ImportResult>;
  /** `importEntries` of entries already prepared for writing (`prepareImportBatch`), e.g. by a worker thread. */
  importPrepared: (
    batches: AsyncIterable<ImportBatch>,
    onProgress?: (progress: ImportProgress) => void,
    options?: ImportOptions,
  ) => Promise<ImportResult>;
  query: (query: AuditQuery) => Promise<AuditPage>;
  /** `query`'s page with each entry as its JSON text: what an answer writes, without parsing the entries. */
  queryJson: (query: AuditQuery) => Promise<AuditJsonPage>;
  /**
   * The `pageSize` entries after `after` in list order (the first ones without it): stable while entries are
   * added, since a position does not move. `totalCount` is of the whole filter.
   */
  seek: (filter: AuditFilter, pageSize: number, after?: AuditCursor) => Promise<AuditSeekPage>;
  /** `seek`'s page with each entry as its JSON text. */
  seekJson: (filter: AuditFilter, pageSize: number, after?: AuditCursor) => Promise<AuditJsonSeekPage>;
  /** One entry of a tenant's trail (Gatehouse's own when absent, any with `*`). */
  entry: (id: number, tenant?: string) => Promise<AuditEntry | undefined>;
  /** The entry before this one in list order, in its tenant's trail, that names the resource. */
  previousOfResource: (
    entry: AuditEntry,
    resource: Pick<AuditResource, 'type' | 'id'>,
  ) => Promise<AuditEntry | undefined>;
  /** Every matching entry in list order, read lazily (for export). */
  iterate: (filter: AuditFilter) => AsyncIterable<AuditEntry>;
  /** Matching entries per hour or day, split by action or user (the chart above the list). */
  timeline: (filter: AuditFilter, options: AuditTimelineOptions) => Promise<AuditTimeline>;
  /** Distinct action and user names present in the store (for autocomplete), sorted. */
  facets: (tenant?: string) => Promise<{ actionNames: string[]; userNames: string[] }>;
  /** The tenants whose trails hold entries (Gatehouse's own always), by name. */
  tenants: () => Promise<AuditTenantSummary[]>;
  applyRetention: (policy: RetentionPolicy) => Promise<{ removed: number }>;
  /** Removes the configuration entries that name this resource. */
  removeResourceHistory: (resource: Pick<AuditResource, 'type' | 'id'>) => Promise<{ removed: number }>;
  count: () => Promise<number>;
  /** Waits until every write started so far is committed. */
  flush: () => Promise<void>;
  close: () => Promise<void>;
}
