import { AuditRecorder } from '../core/audit/audit-recorder.js';
import type { AuditStore } from '../core/audit/audit-entry.js';
import { SqlAuditStore } from '../core/audit/sql/sql-audit-store.js';
import { chainBacklog } from '../core/audit/chain/chain-backlog.js';
import { writeCheckpoints } from '../core/audit/chain/chain-checkpoints.js';
import { ChainSigner } from '../core/audit/chain/chain-signer.js';
import { AppRegistrations } from '../control/identity/app-registrations.js';
import { SignInTickets } from '../control/identity/sign-in-tickets.js';
import { SigningKeySet } from '../control/identity/signing-key-set.js';
import { followSigningKeys } from './signing-keys.js';
import { TokenIssuer, builtInIssuer } from '../control/identity/token-issuer.js';
import { dataDirLayout } from '../core/data-dir/default-data-dir.js';
import type { Logger } from '../core/logging/logger.js';
import type { Tenant } from '../control/common/tenant.js';
import { Monitoring } from '../core/monitoring/monitoring.js';
import { SqlMonitoringStore } from '../core/monitoring/sql/sql-monitoring-store.js';
import { sealStoredHeaderValues } from '../core/passthrough/seal-stored-headers.js';
import { ConfigStore } from '../core/config-store/config-store.js';
import { KeyStore } from '../core/config-store/key-store.js';
import { SecretBox, secretsKeyFile } from '../core/config-store/secret-box.js';
import { Database } from '../core/storage/database.js';
import { AuditSourceStore } from '../core/audit/sources/audit-source-store.js';
import { SavedFilterStore } from '../core/audit/saved-filters/saved-filter-store.js';
import { damagedFileAdvice } from '../core/storage/sqlite-engine.js';
import { convertLegacyDataDir } from '../core/legacy/convert-data-dir.js';
import { runInWorker } from '../core/backup/backup-jobs.js';
import { Backups } from '../core/backup/backups.js';
import { join } from 'node:path';

export type { Tenant };

export interface OpenTenantOptions {
  dataDir: string;
  logger: Logger;
  now: () => Date;
  /** `ConnectionStrings:Gatehouse`: PostgreSQL instead of the data dir's SQLite file. */
  connectionString?: string;
  /** `Secrets:KeyFile`: the key sealing secrets (default `keys/secrets.key` in the data dir). */
  secretsKeyFile?: string;
  /** This instance's name (`Instance:Id`): the audit entries it records carry it. */
  instance: string;
  /** `Backup:Directory` (the embedded engine's backups); default `backups/` in the data dir. */
  backupDirectory?: string;
}

/** Opens a data dir's database and the stores on it. The caller holds the data-dir lock. */
export async function openTenant(options: OpenTenantOptions): Promise<Tenant> {
  const { dataDir, logger, now } = options;
  const layout = dataDirLayout(dataDir);
  const database = await Database.open({ dataDir, connectionString: options.connectionString, logger });
  let configStore: ConfigStore | undefined;
  try {
    const keyFile = secretsKeyFile(layout.keysDir, options.secretsKeyFile ?? '');
    const secretBox = await SecretBox.open(keyFile);
    const clock = () => now().getTime();
    const keys = await KeyStore.open(database, secretBox, keyFile, clock);
    await convertLegacyDataDir({ dataDir, database, keys, logger, now: clock });
    configStore = await ConfigStore.open(database, now);
    const config = configStore;
    const stopFollowing = config.follow(logger);
    const signingKeys = await SigningKeySet.open(keys, clock);
    const stopFollowingKeys = followSigningKeys(database, signingKeys, logger);
    await sealStoredHeaderValues(config, secretBox, logger);
    const chainSigner = await ChainSigner.open(keys);
    await chainBacklog(database, logger);
    const sqlAuditStore = new SqlAuditStore(database, clock);
    sqlAuditStore.chainSigner = chainSigner;
    const auditStore: AuditStore = sqlAuditStore;
    const issuerId = builtInIssuer(config.data.tenant.id);
    const monitoring = Monitoring.open({ store: new SqlMonitoringStore(database, clock, logger), logger });
    const stopCheck = reportDamage(database, logger);
    const backups =
      database.kind === 'sqlite'
        ? new Backups({
            databaseFile: database.location,
            directory: options.backupDirectory ?? join(dataDir, 'backups'),
            now: clock,
            run: runInWorker,
          })
        : undefined;
    return {
      dataDir,
      instance: options.instance,
      layout,
      logger,
      now,
      configStore: config,
      auditStore,
      chainSigner,
      recorder: new AuditRecorder(auditStore, logger, now, options.instance),
      auditSources: new AuditSourceStore(database, secretBox, clock),
      savedFilters: new SavedFilterStore(database, clock),
      monitoring,
      signingKeys,
      secretBox,
      keys,
      issuerId,
      registrations: new AppRegistrations(config, now),
      signInTickets: new SignInTickets(config, now),
      tokenIssuer: (audience) => new TokenIssuer(signingKeys, issuerId, audience),
      database,
      backups,
      async close() {
        stopCheck();
        stopFollowing();
        stopFollowingKeys();
        await backups?.settled();
        await monitoring.close();
        await config.close();
        await auditStore.close();
        // What was written since the last checkpoint is signed before the database closes (an offline import's too).
        await writeCheckpoints(database, chainSigner, clock).catch((error: unknown) =>
          logger.warn({ err: error }, 'the audit chain could not be checkpointed at close'),
        );
        await database.close();
      },
    };
  } catch (error) {
    await configStore?.close();
    await database.close();
    throw error;
  }
}

/** A few seconds after the start: the check reads the whole file, which should not slow the first requests. */
const INTEGRITY_CHECK_DELAY_MS = 5_000;

/**
 * The file's pages are checked in the background soon after the tenant opens; damage is reported with the way
 * out. Requests that read a damaged page answer 503 with the same advice (never a 500). Returns a canceller.
 */
function reportDamage(database: Database, logger: Logger): () => void {
  const timer = setTimeout(() => checkNow(database, logger), INTEGRITY_CHECK_DELAY_MS);
  timer.unref();
  return () => clearTimeout(timer);
}

function checkNow(database: Database, logger: Logger): void {
  database.checkIntegrity().then(
    (problems) => {
      if (problems.length === 0) return;
      logger.error({ database: database.location, problems }, damagedFileAdvice(database.location));
    },
    (error: unknown) => logger.warn({ err: error }, 'the database file could not be checked'),
  );
}
