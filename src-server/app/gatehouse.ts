import { instanceIdOf } from '../core/instance/instance-id.js';
import { mkdir } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { resolve } from 'node:path';
import type { AuditRecorder } from '../core/audit/audit-recorder.js';
import type { AuditStore } from '../core/audit/audit-entry.js';
import type { SettingValue } from '../core/settings/setting-definitions.js';
import { SettingsSource } from '../core/settings/settings.js';
import { acquireDataDirLock } from '../core/data-dir/data-dir-lock.js';
import { dataDirLayout } from '../core/data-dir/default-data-dir.js';
import type { GatewayManager } from '../gateway/gateway-manager.js';
import { createLogger, type Logger } from '../core/logging/logger.js';
import type { Monitoring } from '../core/monitoring/monitoring.js';
import { defaultUiDir } from '../core/data-dir/package-root.js';
import { openTenant, type Tenant } from './tenant.js';
import type { AuditSourceStore } from '../core/audit/sources/audit-source-store.js';
import { startServices, type GatewayStartContext, type ShutdownOptions } from './server-services.js';
import { ApiKeyDigest } from '../control/policies/api-key-digest.js';
import { startGatewayManager, type GatewayPlane } from './gateway-plane.js';
import { backupDirectoryOf } from '../core/backup/backup-directory.js';
import type { ConfigStore } from '../core/config-store/config-store.js';
import type { SecretBox } from '../core/config-store/secret-box.js';
import type { Database } from '../core/storage/database.js';
import type { KeyStore } from '../core/config-store/key-store.js';

export interface GatehouseOptions {
  dataDir: string;
  /** Command-line layer: `--host`, `--port`, `--gateway-port` and `--set Key=Value`. */
  host?: string;
  port?: number;
  gatewayPort?: number;
  settings?: Record<string, SettingValue>;
  env?: NodeJS.ProcessEnv;
  /** The built console; defaults to `out/renderer` of the package. */
  uiDir?: string;
  logger?: Logger;
  now?: () => Date;
  /** Named in the lock file so a second process can say who holds the data dir. */
  command?: string;
  /**
   * How long after the start the audit retention's first run waits (default a few seconds, so that the
   * first requests are answered first; `runStartUpJobs()` runs it sooner).
   */
  retentionStartDelayMs?: number;
}

export interface Gatehouse<G extends GatewayPlane = GatewayManager> {
  dataDir: string;
  controlPanelUrl: () => string;
  gatewayEndpoints: () => { agentGroupId: string; name: string; url: string }[];
  /** A bearer token from the built-in identity provider (for the desktop session and scripts). */
  issueToken: (request: { userName: string; roles: string[]; ttlSeconds?: number }) => Promise<string>;
  /** A one-time console sign-in URL (the ticket rides in the fragment, never in logs or history). */
  createSignInUrl: (request?: { userName?: string; roles?: string[] }) => Promise<string>;
  restartControlPanel: () => Promise<void>;
  /**
   * Runs the start-up audit retention now if it still waits for its delay, and resolves when it is over: for tests
   * and embedders that write entries dated long ago right after the start.
   */
  runStartUpJobs: () => Promise<void>;
  /** Graceful: listeners drain (after the readiness grace, if asked), the audit store flushes, the lock is released. */
  close: (options?: ShutdownOptions) => Promise<void>;
  /** For embedding and tests: the live stores. */
  readonly audit: { store: AuditStore; recorder: AuditRecorder; sources: AuditSourceStore };
  /** For embedding and tests: the configuration store and the box that seals its secrets. */
  readonly config: { store: ConfigStore; secretBox: SecretBox };
  /** For embedding and tests: the gateway (`settled()` waits until configuration changes are applied). */
  readonly gateway: G;
  /** For embedding and tests: API Monitoring (its sink, `flush()`, `store()` and metrics). */
  readonly monitoring: Monitoring;
  /** For embedding and tests: the database every store lives in. */
  readonly database: Database;
  /** For embedding and tests: the key material in it. */
  readonly keys: KeyStore;
}

/** Starts the whole server in-process for one data dir: Electron main and `gatehouse serve` both call this. */
export function startGatehouse(options: GatehouseOptions): Promise<Gatehouse> {
  return launchGatehouse(options, async ({ tenant, settings, instance, storage }) =>
    startGatewayManager({
      tenantId: tenant.configStore.data.tenant.id,
      settings,
      instance,
      recordsInstance: instance,
      logger: tenant.logger,
      configStore: tenant.configStore,
      recorder: tenant.recorder,
      monitoring: tenant.monitoring,
      secretBox: tenant.secretBox,
      apiKeyDigest: await ApiKeyDigest.open(tenant.keys),
      storage,
      database: tenant.database,
    }),
  );
}

/** One data dir's server with its data plane started by `startGateway` (here, or in worker processes). */
export async function launchGatehouse<G extends GatewayPlane>(
  options: GatehouseOptions,
  startGateway: (context: GatewayStartContext) => Promise<G>,
): Promise<Gatehouse<G>> {
  const dataDir = resolve(options.dataDir);
  const layout = dataDirLayout(dataDir);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const lock = await acquireDataDirLock(dataDir, layout.lockFile, options.command ?? 'serve');
  let tenant: Tenant | undefined;
  try {
    const source = new SettingsSource({
      dataDir,
      env: options.env,
      commandLine: {
        ...options.settings,
        'ControlPanel:Host': options.host,
        'ControlPanel:Port': options.port,
        'Gateway:Port': options.gatewayPort,
      },
    });
    const settings = await source.resolve();
    const logger = options.logger ?? createLogger(settings.str('Logging:Level'));
    const now = options.now ?? (() => new Date());
    tenant = await openTenant({
      dataDir,
      logger,
      now,
      connectionString: settings.str('ConnectionStrings:Gatehouse'),
      secretsKeyFile: settings.str('Secrets:KeyFile'),
      instance: instanceIdOf(settings.str('Instance:Id')),
      backupDirectory: backupDirectoryOf(dataDir, settings),
    });
    const services = await startServices({
      tenant,
      source,
      settings,
      uiDir: options.uiDir ?? defaultUiDir(),
      startGateway,
      retentionStartDelayMs: options.retentionStartDelayMs,
    });
    try {
      await lock.announce({ controlPanelUrl: services.controlPanel.url });
    } catch (error) {
      await services.close();
      throw error;
    }
    const closeAll = async (shutdown?: ShutdownOptions) => {
      await services.close(shutdown);
      await tenant!.close();
      await lock.release();
    };
    return {
      dataDir,
      controlPanelUrl: () => services.controlPanel.url,
      gatewayEndpoints: () => services.gateway.endpoints(),
      issueToken: ({ userName, roles, ttlSeconds }) =>
        tenant!.tokenIssuer(services.controlPanel.settings.str('Auth:Audience')).issue({
          subject: `user:${userName}`,
          userName,
          roles,
          ttlSeconds: ttlSeconds ?? services.controlPanel.settings.int('Auth:TokenLifetimeMinutes') * 60,
        }),
      async createSignInUrl(request = {}) {
        const ticket = await tenant!.signInTickets.create(
          request.userName ?? userInfo().username,
          request.roles ?? ['Operator'],
        );
        return `${services.controlPanel.url}/#signin=${ticket}`;
      },
      restartControlPanel: () => services.controlPanel.restart(),
      runStartUpJobs: () => services.runStartUpJobs(),
      close: closeAll,
      audit: { store: tenant.auditStore, recorder: tenant.recorder, sources: tenant.auditSources },
      config: { store: tenant.configStore, secretBox: tenant.secretBox },
      gateway: services.gateway,
      monitoring: tenant.monitoring,
      database: tenant.database,
      keys: tenant.keys,
    };
  } catch (error) {
    await tenant?.close();
    await lock.release();
    throw error;
  }
}
