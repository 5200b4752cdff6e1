/**
 * The tables of the Gatehouse database, the same on SQLite and PostgreSQL (created by `migrations/`). Times are
 * epoch milliseconds; JSON is kept as text. Rows of audit entries and monitoring records are never updated: a
 * removal moves the row into the matching `*_removed` table with the time of the removal, so the state at any
 * moment of the last 35 days can be rebuilt from the database itself (see README.md beside this file).
 */
export interface GatehouseSchema {
  sequences: SequenceTable;
  meta: MetaTable;
  config_commits: ConfigCommitTable;
  config_records: ConfigRecordTable;
  api_documents: ApiDocumentTable;
  key_material: KeyMaterialTable;
  audit_entries: AuditEntryTable;
  audit_entries_removed: AuditEntryRemovedTable;
  audit_resources: AuditResourceTable;
  /** PostgreSQL only (migration 0012; SQLite searches its FTS5 table `audit_search`). */
  audit_terms: AuditTermTable;
  /** PostgreSQL only (migration 0022): entries per tenant and term. */
  audit_term_counts: AuditTermCountTable;
  audit_day_counts: AuditDayCountTable;
  audit_hour_counts: AuditHourCountTable;
  audit_action_hour_counts: AuditActionHourCountTable;
  audit_user_hour_counts: AuditUserHourCountTable;
  audit_action_day_counts: AuditActionDayCountTable;
  audit_user_day_counts: AuditUserDayCountTable;
  audit_action_user_day_counts: AuditActionUserDayCountTable;
  monitoring_records: MonitoringRecordTable;
  monitoring_records_removed: MonitoringRecordRemovedTable;
  monitoring_rollups: MonitoringRollupTable;
  instances: InstanceTable;
  throttle_windows: ThrottleWindowTable;
  audit_sources: AuditSourceTable;
  audit_chain_heads: AuditChainHeadTable;
  audit_chain_checkpoints: AuditChainCheckpointTable;
  audit_chain_removals: AuditChainRemovalTable;
  saved_filters: SavedFilterTable;
}

/** A filter of the audit viewer a user saved under a name. */
export interface SavedFilterTable {
  id: string;
  /** The user it belongs to, as the token names them. */
  user_name: string;
  name: string;
  /** The name lower-cased: unique per user. */
  name_key: string;
  /** The filter's query parameters as a JSON object of strings. */
  filter: string;
  created_at: number;
}

/** A tenant's management API a trail is synced from. */
export interface AuditSourceTable {
  name: string;
  /** The tenant whose trail the synced entries go into. */
  tenant: string;
  base_url: string;
  /** How a token is obtained (JSON, no secret): `{kind:'client-credentials', tokenEndpoint, clientId, scope}` or `{kind:'bearer'}`. */
  auth: string;
  /** The client secret or the bearer token, sealed with the data dir's secrets key. */
  sealed_secret: string;
  /** Where the last sync got to (JSON), for the next incremental sync or a resumption. */
  sync_state: string | null;
  created_at: number;
  updated_at: number;
}

/** Id counters: ids are never reused, whatever is removed. */
export interface SequenceTable {
  name: string;
  value: number;
}

export interface MetaTable {
  key: string;
  value: string;
}

/** One row per committed configuration change; the highest id is the newest. */
export interface ConfigCommitTable {
  id: number;
  committed_at: number;
}

/**
 * The configuration, a row per version of a record (`kind` is the collection, or `tenant` / `schemaVersion`):
 * `valid_to` is null for the current version, else when it was replaced or removed. Secret values in it are sealed.
 */
export interface ConfigRecordTable {
  kind: string;
  key: string;
  /** The commit that wrote this version. */
  commit_id: number;
  /** The record's place in its collection (kept when it changes). */
  ordinal: number;
  valid_from: number;
  valid_to: number | null;
  /** The record (JSON); empty when it is in `data_deflated`. */
  data: string;
  /** A large record's JSON, gzip-compressed (migration 0017); null otherwise. */
  data_deflated: Uint8Array | null;
}

/** Imported OpenAPI documents, named by the API record that points at them. */
export interface ApiDocumentTable {
  name: string;
  media_type: string | null;
  content: Buffer;
  created_at: number;
  /** Set when no record names it any more; the row is purged once it is older than the restore window. */
  removed_at: number | null;
}

/** Keys of the identity provider and the API-key digest, sealed with the data dir's secrets key. */
export interface KeyMaterialTable {
  name: string;
  sealed_value: string;
  created_at: number;
}

export interface AuditEntryTable {
  id: number;
  /** The trail the entry belongs to: `gatehouse` (Gatehouse's own) or an imported or synced tenant's name. */
  tenant: string;
  /** The entry's timestamp. */
  time_ms: number;
  /** Lower-cased action and user names: the list filters match case-insensitively. */
  action_key: string;
  user_key: string;
  category: string;
  agent_group_id: string | null;
  /** 64-bit content digest (hex): what makes an import idempotent. */
  content_hash: string;
  /** The entry as JSON, without its id. */
  entry: string;
  /** When the row was written. */
  recorded_at: number;
  /** The instance that wrote it (`Instance:Id`); null for rows written before instances were named. */
  instance: string | null;
  /** The entry's place in its tenant's chain (1, 2, …); null only for rows written before the chain, until chained. */
  chain_seq: number | null;
  /** The entry's link hash (docs/AUDIT-CHAIN.md), hex. */
  chain_hash: string | null;
}

/** The last link of each tenant's chain. */
export interface AuditChainHeadTable {
  tenant: string;
  seq: number;
  hash: string;
}

/** A signed statement that a tenant's chain had this link at this place. */
export interface AuditChainCheckpointTable {
  tenant: string;
  seq: number;
  hash: string;
  signed_at: number;
  /** The signing public key (Ed25519, SPKI DER, base64). */
  public_key: string;
  /** Ed25519 signature of the checkpoint's statement, base64. */
  signature: string;
}

/** A signed record of a run of entries removed by a policy (retention) or an operator's history removal. */
export interface AuditChainRemovalTable {
  tenant: string;
  from_seq: number;
  to_seq: number;
  count: number;
  /** The link before the run (the chain's start for a run from 1). */
  prev_hash: string;
  /** The link of the run's last entry: the next entry's link follows it. */
  last_hash: string;
  policy: string;
  removed_at: number;
  public_key: string;
  signature: string;
}

export interface AuditEntryRemovedTable extends AuditEntryTable {
  removed_at: number;
}

/** The resources of configuration entries (retention keeps them while a resource lives). */
/**
 * One word of an entry's parameters (a lexeme of its tsvector), with the entry's tenant and time: the btree a
 * search counts and pages from on PostgreSQL. Filled and emptied by triggers on `audit_entries` (migration 0012).
 */
export interface AuditTermTable {
  tenant: string;
  term: string;
  time_ms: number;
  entry_id: number;
}

export interface AuditTermCountTable {
  tenant: string;
  term: string;
  /** Code points the term shares with its entry's previous term in code-point order (migration 0024). */
  lcp: number;
  n: number;
}

export interface AuditResourceTable {
  entry_id: number;
  resource_type: string;
  resource_id: string;
}

/** Entries per UTC day, kept in the transaction that adds or removes them: exact counts without a scan. */
export interface AuditDayCountTable {
  tenant: string;
  day: number;
  n: number;
}

/** Entries per UTC hour (hours since the epoch), kept like the per-day counts: a range's partial days (0011). */
export interface AuditHourCountTable {
  tenant: string;
  hour: number;
  n: number;
}

/** Entries per action and UTC hour: a timeline's hours and the partial days at its ends (0015). */
export interface AuditActionHourCountTable {
  tenant: string;
  action_key: string;
  hour: number;
  n: number;
}

/** Entries per user and UTC hour, as the per-action ones. */
export interface AuditUserHourCountTable {
  tenant: string;
  user_key: string;
  hour: number;
  n: number;
}

export interface AuditActionDayCountTable {
  tenant: string;
  action_key: string;
  day: number;
  /** The spelling seen first (what the facets list shows). */
  action_name: string;
  n: number;
}

export interface AuditUserDayCountTable {
  tenant: string;
  user_key: string;
  day: number;
  user_name: string;
  n: number;
}

export interface AuditActionUserDayCountTable {
  tenant: string;
  action_key: string;
  user_key: string;
  day: number;
  n: number;
}

export interface MonitoringRecordTable {
  id: number;
  time_ms: number;
  agent_group_id: string;
  agent_group_name: string;
  method: string;
  path: string;
  api_id: string | null;
  api_name: string | null;
  operation: string | null;
  status: number;
  duration_ms: number;
  bytes_in: number;
  bytes_out: number;
  target_url: string | null;
  outcome: string;
  client_ip: string;
  identity: string | null;
  reason: string | null;
  recorded_at: number;
  /** 1 when the All operations entry served the request (0004). */
  via_all_operations: number | null;
  /** The captured exchange as JSON, when the API captures them (0004). */
  capture: string | null;
  /** The instance whose gateway served the request; null for rows written before instances were named. */
  instance: string | null;
}

export interface MonitoringRecordRemovedTable extends MonitoringRecordTable {
  removed_at: number;
}

/**
 * Monitoring records summed per time bucket (5 minutes and 1 hour), for everything (`dimension` ''), per API
 * (`api`) and per agent group (`agentGroup`), per status class: what the summary reads instead of the records.
 */
export interface MonitoringRollupTable {
  bucket_ms: number;
  granularity_ms: number;
  dimension: string;
  dimension_value: string;
  status_class: number;
  n: number;
  duration_sum: number;
  duration_min: number;
  duration_max: number;
  /** Sparse duration histogram: pairs of (bin u16, count u32), little endian. */
  bins: Buffer;
}

/** The Gatehouse instances that use the database: registered at start, seen again every minute. */
export interface InstanceTable {
  name: string;
  started_at: number;
  seen_at: number;
}

/** API-policy throttling counted in PostgreSQL (instances without Redis): one sliding-window counter per key. */
export interface ThrottleWindowTable {
  key: string;
  window_ms: number;
  window_start: number;
  current_count: number;
  previous_count: number;
  /** The database's clock at the last request, in ms (expired counters are dropped by it). */
  seen_at: number;
  /** Whether the last request was let through. */
  allowed: boolean;
}
