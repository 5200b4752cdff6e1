import { AuditRecorder } from './audit/audit-recorder.js';
import type { AuditStore } from './audit/audit-entry.js';
import { openAuditStore } from './audit/store/index.js';
import { AppRegistrations } from './auth/app-registrations.js';
import { SignInTickets } from './auth/sign-in-tickets.js';
import { loadOrCreateSigningKey, type SigningKey } from './auth/signing-key.js';
import { TokenIssuer, builtInIssuer } from './auth/token-issuer.js';
import { dataDirLayout } from './data-dir/default-data-dir.js';
import type { Logger } from './logger.js';
import { Monitoring } from './monitoring/monitoring.js';
import { sealStoredHeaderValues } from './passthrough/seal-stored-headers.js';
import { ConfigStore } from './store/config-store.js';
import { SecretBox } from './store/secret-box.js';

/** Everything a data dir holds, opened: the stores and the identity provider's key. */
export interface Tenant {
  dataDir: string;
  layout: ReturnType<typeof dataDirLayout>;
  logger: Logger;
  now: () => Date;
  configStore: ConfigStore;
  auditStore: AuditStore;
  recorder: AuditRecorder;
  /** API Monitoring: the gateway's sink, the store behind it, and the Prometheus metrics. */
  monitoring: Monitoring;
  signingKey: SigningKey;
  /** Seals secret values kept in the configuration store. */
  secretBox: SecretBox;
  issuerId: string;
  registrations: AppRegistrations;
  signInTickets: SignInTickets;
  tokenIssuer(audience: string): TokenIssuer;
  close(): Promise<void>;
}

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
