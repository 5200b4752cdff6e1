import { AuditRecorder } from '../core/audit/audit-recorder.js';
import type { AuditStore } from '../core/audit/audit-entry.js';
import { openAuditStore } from '../core/audit/store/index.js';
import { AppRegistrations } from '../control/identity/app-registrations.js';
import { SignInTickets } from '../control/identity/sign-in-tickets.js';
import { loadOrCreateSigningKey } from '../control/identity/signing-key.js';
import { TokenIssuer, builtInIssuer } from '../control/identity/token-issuer.js';
import { dataDirLayout } from '../core/data-dir/default-data-dir.js';
import type { Logger } from '../core/logging/logger.js';
import type { Tenant } from '../control/common/tenant.js';
import { Monitoring } from '../core/monitoring/monitoring.js';
import { sealStoredHeaderValues } from '../core/passthrough/seal-stored-headers.js';
import { ConfigStore } from '../core/config-store/config-store.js';
import { SecretBox } from '../core/config-store/secret-box.js';

export type { Tenant };

/** Opens a data dir's stores. The caller holds the data-dir lock. */
export async function openTenant(options: {
  dataDir: string;
  logger: Logger;
  now: () => Date;
}): Promise<Tenant> {
  const { dataDir, logger, now } = options;
  const layout = dataDirLayout(dataDir);
  const configStore = await ConfigStore.open(layout.configDir, now);
  let auditStore: AuditStore | undefined;
  try {
    const signingKey = await loadOrCreateSigningKey(layout.keysDir);
    const secretBox = await SecretBox.open(layout.keysDir);
    await sealStoredHeaderValues(configStore, secretBox, logger);
    auditStore = await openAuditStore({
      dir: layout.auditDir,
      onWarning: (message, details) => logger.warn({ details }, message),
      now: () => now().getTime(),
    });
    const issuerId = builtInIssuer(configStore.data.tenant.id);
    const store = auditStore;
    // Opens in the background: its index rebuild does not hold up the start.
    const monitoring = Monitoring.open({ dir: layout.monitoringDir, logger });
    return {
      dataDir,
      layout,
      logger,
      now,
      configStore,
      auditStore: store,
      recorder: new AuditRecorder(store, logger, now),
      monitoring,
      signingKey,
      secretBox,
      issuerId,
      registrations: new AppRegistrations(configStore, now),
      signInTickets: new SignInTickets(configStore, now),
      tokenIssuer: (audience) => new TokenIssuer(signingKey, issuerId, audience),
      async close() {
        await monitoring.close();
        await configStore.close();
        await store.close();
      },
    };
  } catch (error) {
    await auditStore?.close();
    await configStore.close();
    throw error;
  }
}
