import { AuditRecorder } from '../core/audit/audit-recorder.js';
import type { AuditStore } from '../core/audit/audit-entry.js';
import { SqlAuditStore } from '../core/audit/sql/sql-audit-store.js';
import { AppRegistrations } from '../control/identity/app-registrations.js';
import { SignInTickets } from '../control/identity/sign-in-tickets.js';
import { loadOrCreateSigningKey } from '../control/identity/signing-key.js';
import { TokenIssuer, builtInIssuer } from '../control/identity/token-issuer.js';
import { dataDirLayout } from '../core/data-dir/default-data-dir.js';
import type { Logger } from '../core/logging/logger.js';
import type { Tenant } from '../control/common/tenant.js';
import { Monitoring } from '../core/monitoring/monitoring.js';
import { SqlMonitoringStore } from '../core/monitoring/sql/sql-monitoring-store.js';
import { Database } from '../core/storage/database.js';
import { sealStoredHeaderValues } from '../core/passthrough/seal-stored-headers.js';
import { ConfigStore } from '../core/config-store/config-store.js';
import { SecretBox } from '../core/config-store/secret-box.js';

export type { Tenant };

/** Opens a data dir's stores. The caller holds the data-dir lock. */
export async function openTenant(options: {
  dataDir: string;
  logger: Logger;
  now: () => Date;
  /** `ConnectionStrings:Gatehouse`: PostgreSQL instead of the data dir's SQLite file. */
  connectionString?: string;
}): Promise<Tenant> {
  const { dataDir, logger, now } = options;
  const layout = dataDirLayout(dataDir);
  const database = await Database.open({ dataDir, connectionString: options.connectionString, logger });
  let configStore: ConfigStore | undefined;
  let auditStore: AuditStore | undefined;
  try {
    configStore = await ConfigStore.open(layout.configDir, now);
    const signingKey = await loadOrCreateSigningKey(layout.keysDir);
    const secretBox = await SecretBox.open(layout.keysDir);
    await sealStoredHeaderValues(configStore, secretBox, logger);
    auditStore = new SqlAuditStore(database, () => now().getTime());
    const issuerId = builtInIssuer(configStore.data.tenant.id);
    const store = auditStore;
    const config = configStore;
    const monitoring = Monitoring.open({
      store: new SqlMonitoringStore(database, () => now().getTime()),
      logger,
    });
    return {
      dataDir,
      layout,
      logger,
      now,
      configStore: config,
      auditStore: store,
      recorder: new AuditRecorder(store, logger, now),
      monitoring,
      signingKey,
      secretBox,
      issuerId,
      registrations: new AppRegistrations(configStore, now),
      signInTickets: new SignInTickets(configStore, now),
      tokenIssuer: (audience) => new TokenIssuer(signingKey, issuerId, audience),
      database,
      async close() {
        await monitoring.close();
        await config.close();
        await store.close();
        await database.close();
      },
    };
  } catch (error) {
    await auditStore?.close();
    await configStore?.close();
    await database.close();
    throw error;
  }
}
