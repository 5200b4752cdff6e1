import type { AuditRecorder } from '../../core/audit/audit-recorder.js';
import type { AuditStore } from '../../core/audit/audit-entry.js';
import type { AppRegistrations } from '../identity/app-registrations.js';
import type { SignInTickets } from '../identity/sign-in-tickets.js';
import type { SigningKeySet } from '../identity/signing-key-set.js';
import type { TokenIssuer } from '../identity/token-issuer.js';
import type { dataDirLayout } from '../../core/data-dir/default-data-dir.js';
import type { Logger } from '../../core/logging/logger.js';
import type { Monitoring } from '../../core/monitoring/monitoring.js';
import type { ConfigStore } from '../../core/config-store/config-store.js';
import type { KeyStore } from '../../core/config-store/key-store.js';
import type { SecretBox } from '../../core/config-store/secret-box.js';
import type { Backups } from '../../core/backup/backups.js';
import type { Database } from '../../core/storage/database.js';
import type { ChainSigner } from '../../core/audit/chain/chain-signer.js';
import type { AuditSourceStore } from '../../core/audit/sources/audit-source-store.js';
import type { SavedFilterStore } from '../../core/audit/saved-filters/saved-filter-store.js';

/** Everything a data dir holds, opened: the stores and the identity provider's key. */
export interface Tenant {
  dataDir: string;
  /** This instance's name (`Instance:Id`, or host name and process id): its audit and monitoring records carry it. */
  instance: string;
  layout: ReturnType<typeof dataDirLayout>;
  logger: Logger;
  now: () => Date;
  configStore: ConfigStore;
  auditStore: AuditStore;
  /** Signs the audit chains' checkpoints and removal records (the database's Ed25519 key, sealed in `keys`). */
  chainSigner: ChainSigner;
  recorder: AuditRecorder;
  /** The tenants' endpoints audit trails are synced from (secrets sealed). */
  auditSources: AuditSourceStore;
  savedFilters: SavedFilterStore;
  /** API Monitoring: the gateway's sink, the store behind it, and the Prometheus metrics. */
  monitoring: Monitoring;
  /** The built-in identity provider's keys (shared by the instances on the database, rotated). */
  signingKeys: SigningKeySet;
  /** Seals secret values kept in the database. */
  secretBox: SecretBox;
  /** Key material in the database (sealed). */
  keys: KeyStore;
  issuerId: string;
  registrations: AppRegistrations;
  signInTickets: SignInTickets;
  tokenIssuer: (audience: string) => TokenIssuer;
  /** The database the stores live in (SQLite in the data dir, or PostgreSQL). */
  database: Database;
  /** Backups of the embedded database; undefined on PostgreSQL (its own tools back it up). */
  backups: Backups | undefined;
  close: () => Promise<void>;
}
