import { scheduleRetention } from '../core/audit/retention-scheduler.js';
import { scheduleCheckpoints } from '../core/audit/chain/checkpoint-scheduler.js';
import { SyncRuns } from '../control/audit/sources/sync-runs.js';
import { VerificationRuns } from '../control/audit/verification-runs.js';
import { ExternalProvider } from '../core/oidc/external-provider.js';
import { TokenVerifier } from '../control/identity/token-verifier.js';
import type { SettingsSnapshot, SettingsSource } from '../core/settings/settings.js';
import { AddressInUseError, isPortInUse } from '../core/net/listener.js';
import { createControlPanelApp } from '../control/panel/control-panel-app.js';
import { ControlPanel } from '../control/panel/control-panel.js';
import { managementRoutes } from '../control/panel/management-routes.js';
import { metricsRouter } from '../control/monitoring/metrics-router.js';
import { scheduleMonitoringRetention } from '../core/monitoring/retention-scheduler.js';
import { scheduleBackups } from '../core/backup/backup-scheduler.js';
import { buildManagementDocument, servedBy } from '../control/panel/management-document.js';
import { allRoutes } from '../control/http/route-group.js';
import { sharedUntilFailure } from '../core/async/shared-until-failure.js';
import { packageInfo } from '../core/data-dir/package-root.js';
import { InstanceRegistry } from '../core/instance/instance-registry.js';
import { apiImportsOnFirstUse } from '../control/apis/api-imports-on-first-use.js';
import { isResourceLive } from './resource-liveness.js';
import { storageCheck } from './health/storage-check.js';
import type { Tenant } from './tenant.js';
import { scheduleKeyRotation } from './signing-keys.js';
import type { HealthCheck } from '../core/health/health-endpoints.js';
import type { GatewayPlane } from './gateway-plane.js';
import type { ExternalSignIn } from '../control/identity/sign-in-options-route.js';

export interface ServerServices<G extends GatewayPlane> {
  controlPanel: ControlPanel;
  gateway: G;
  /** This instance's name (`Instance:Id`, or host name and process id). */
  instance: string;
  /** The start-up retention at once if it still waits; resolves when it is over. */
  runStartUpJobs: () => Promise<void>;
  close: (options?: ShutdownOptions) => Promise<void>;
}

/**
 * The start-up retention's read of the trail (the agent-window count) held up the first answers of a cold start,
 * so it waits this long after the start instead. On SQLite its statements run on the main thread (13–25 ms at 1M
 * entries); on PostgreSQL they run on the server, but its count over ~200k agent entries (50 ms warm, 114–300 ms
 * cold, in two parallel workers) took the CPU the first requests' statements needed on the same host.
 */
export const RETENTION_START_DELAY_MS = 3_000;

export interface ShutdownOptions {
  /**
   * SIGTERM's order: `/readyz` answers 503 on every listener while they keep accepting for
   * `Shutdown:ReadinessGraceSeconds` (a load balancer's probe takes the instance out), then they close.
   */
  readinessGrace?: boolean;
  /** Ends the readiness grace early (a second signal). */
  cutGraceShort?: AbortSignal;
}

/** Resolves after `ms`, or as soon as `signal` aborts. */
function graceElapsed(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, signal?.aborted ? 0 : ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** What starting the data plane gets: the tenant's parts, and what `/readyz` asks. */
export interface GatewayStartContext {
  tenant: Tenant;
  settings: SettingsSnapshot;
  instance: string;
  storage: () => Promise<HealthCheck>;
}

function externalProviderOf(settings: SettingsSnapshot): ExternalProvider | undefined {
  const authority = settings.str('Auth:External:Authority');
  if (!authority) return undefined;
  return new ExternalProvider({
    authority,
    audience: settings.str('Auth:External:Audience'),
    keyRefreshCooldownMs: settings.int('Auth:External:KeyRefreshCooldownSeconds') * 1000,
  });
}

/** The origin the console posts its authorization code to, when it can sign in with an external provider. */
function consoleSignInOrigins(settings: SettingsSnapshot): string[] {
  const authority = settings.str('Auth:External:Authority');
  if (!authority || settings.str('Auth:External:ConsoleClientId').trim() === '') return [];
  return URL.canParse(authority) ? [new URL(authority).origin] : [];
}

/** The console's sign-in with the external provider: its endpoints, from the provider's discovery document. */
async function externalSignInOf(
  external: ExternalProvider | undefined,
  settings: SettingsSnapshot,
): Promise<ExternalSignIn | undefined> {
  const clientId = settings.str('Auth:External:ConsoleClientId').trim();
  if (!external || clientId === '') return undefined;
  const discovered = await external.discover();
  if (!discovered.authorizationEndpoint || !discovered.tokenEndpoint) return undefined;
  return {
    issuer: discovered.issuer,
    authorizationEndpoint: discovered.authorizationEndpoint,
    tokenEndpoint: discovered.tokenEndpoint,
    clientId,
    scope: settings.str('Auth:External:ConsoleScope'),
  };
}

/**
 * Starts the listeners of a tenant: the gateway's (in this process, or in workers: `startGateway` decides), then
 * the Control Panel's.
 */
export async function startServices<G extends GatewayPlane>(input: {
  tenant: Tenant;
  source: SettingsSource;
  settings: SettingsSnapshot;
  uiDir: string | undefined;
  startGateway: (context: GatewayStartContext) => Promise<G>;
  /** How long the start-up retention waits (default `RETENTION_START_DELAY_MS`). */
  retentionStartDelayMs?: number;
}): Promise<ServerServices<G>> {
  const { tenant, source, settings } = input;
  const { logger, now } = tenant;
  const { version, license } = packageInfo();
  const { instance } = tenant;
  const storage = storageCheck(tenant);
  const drainMs = settings.int('Shutdown:DrainSeconds') * 1000;
  const readinessGraceMs = settings.int('Shutdown:ReadinessGraceSeconds') * 1000;
  let draining = false;
  // Registered first, then the gateway started: neither leaves anything to undo when it fails.
  const registry = new InstanceRegistry(tenant.database, instance, () => now().getTime(), logger);
  await registry.start();
  const gateway = await input
    .startGateway({ tenant, settings, instance, storage })
    .catch(async (error: unknown) => {
      registry.stop();
      throw await withControlPanelPortToo(error, settings);
    });

  // Background jobs run on one instance of the database at a time; the others take them over when it goes.
  const lease = await tenant.database.jobLease(instance, logger);
  const retention = scheduleRetention({
    lease,
    startUpDelayMs: input.retentionStartDelayMs ?? RETENTION_START_DELAY_MS,
    store: tenant.auditStore,
    logger,
    now,
    retentionDays: settings.int('Audit:RetentionDays'),
    agentWindow: settings.int('Audit:AgentEventWindow'),
    isResourceLive: (resource) => isResourceLive(tenant.configStore, resource),
  });
  const stopCheckpoints = scheduleCheckpoints({
    lease,
    database: tenant.database,
    signer: tenant.chainSigner,
    logger,
    now: () => now().getTime(),
    intervalMs: settings.int('Audit:CheckpointIntervalSeconds') * 1000,
  });
  const stopMonitoringRetention = scheduleMonitoringRetention({
    lease,
    monitoring: tenant.monitoring,
    logger,
    now,
    retentionDays: settings.int('Monitoring:RetentionDays'),
  });
  const stopKeyRotation = scheduleKeyRotation({
    database: tenant.database,
    keys: tenant.signingKeys,
    lease,
    logger,
  });
  const stopBackups = scheduleBackups({
    lease,
    backups: tenant.backups,
    configStore: tenant.configStore,
    logger,
    now,
  });

  const imports = apiImportsOnFirstUse(tenant);
  const syncRuns = new SyncRuns(tenant.auditSources, tenant.auditStore, logger);
  const verificationRuns = new VerificationRuns(tenant.database, tenant.chainSigner, logger);
  const build = (current: SettingsSnapshot) => {
    const tokenIssuer = tenant.tokenIssuer(current.str('Auth:Audience'));
    const external = externalProviderOf(current);
    const verifier = new TokenVerifier({
      builtIn: {
        issuer: tenant.issuerId,
        audience: current.str('Auth:Audience'),
        publicJwks: () => tenant.signingKeys.published(),
      },
      external,
      clientName: (clientId) => tenant.registrations.nameOfClient(clientId),
    });
    const { groups, routes } = managementRoutes({
      tenant,
      settings: current,
      tokenIssuer,
      tenantSettings: {
        source,
        effective: () => controlPanel.settings,
        status: () => ({
          ...controlPanel.status(),
          version,
          echoTargetUrl: `${controlPanel.url}/echo`,
          instance,
          sharedDatabase: tenant.database.kind === 'postgres',
        }),
        scheduleRestart: () => controlPanel.scheduleRestart(),
      },
      gateway,
      externalSignIn: () => externalSignInOf(external, current),
      imports,
      syncRuns,
      verificationRuns,
      instances: registry,
    });
    // Built on the first request for it, not at start: turning every route's schemas into JSON Schema costs
    // ~100 ms of CPU and leaves its garbage on the heap of every start (bench:audit's cold start and RSS).
    const document = sharedUntilFailure(async () =>
      buildManagementDocument(await allRoutes(groups, routes), { version, license }),
    );
    const app = createControlPanelApp({
      routeGroups: groups,
      routes,
      services: {
        authenticate: (req) => verifier.authenticate(req),
        recordAudit: async (record) => {
          await tenant.recorder.recordRequest(record);
        },
        logger,
      },
      logger,
      boundHost: current.str('ControlPanel:Host'),
      allowedHosts: current
        .str('ControlPanel:AllowedHosts')
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
      uiDir: input.uiDir,
      managementDocument: async (origin) => servedBy(await document(), origin),
      connectSources: consoleSignInOrigins(current),
      health: {
        instance,
        readiness: async () => ({
          storage: await storage(),
          draining: draining ? { status: 'fail', detail: 'shutting down' } : { status: 'pass' },
        }),
      },
      extraRouters: [
        metricsRouter({
          metrics: tenant.monitoring.metrics,
          requireAuth: current.bool('Monitoring:MetricsRequireAuth'),
          controlPanelHost: current.str('ControlPanel:Host'),
          authenticate: (req) => verifier.authenticate(req),
          logger,
        }),
      ],
    });
    return { handler: app, host: current.str('ControlPanel:Host'), port: current.int('ControlPanel:Port') };
  };
  const controlPanel: ControlPanel = new ControlPanel(source, settings, build, logger, now);
  try {
    await controlPanel.start();
  } catch (error) {
    await retention.stop();
    await stopCheckpoints();
    await stopMonitoringRetention();
    await stopBackups();
    await stopKeyRotation();
    await lease.close();
    await gateway.close();
    await imports.close();
    registry.stop();
    throw error;
  }

  return {
    controlPanel,
    gateway,
    instance,
    runStartUpJobs: () => retention.runStartUpNow(),
    async close({ readinessGrace = false, cutGraceShort }: ShutdownOptions = {}) {
      draining = true;
      gateway.announceShutdown();
      if (readinessGrace && readinessGraceMs > 0) {
        logger.info(
          { readinessGraceSeconds: readinessGraceMs / 1000 },
          'shutting down: /readyz answers 503, the listeners accept until the readiness grace ends',
        );
        await graceElapsed(readinessGraceMs, cutGraceShort);
      }
      await retention.stop();
      await stopCheckpoints();
      await stopMonitoringRetention();
      await stopBackups();
      await stopKeyRotation();
      await lease.close();
      await syncRuns.stopAll();
      verificationRuns.close();
      // Both planes stop accepting at once and drain side by side, each for at most Shutdown:DrainSeconds.
      await Promise.all([controlPanel.close(drainMs).then(() => imports.close()), gateway.close()]);
      registry.stop();
    },
  };
}

/**
 * The gateway starts first: when its port is taken, say in the same message whether the Control Panel's is too,
 * so one more try is enough.
 */
async function withControlPanelPortToo(error: unknown, settings: SettingsSnapshot): Promise<unknown> {
  if (!(error instanceof AddressInUseError)) return error;
  const host = settings.str('ControlPanel:Host');
  const port = settings.int('ControlPanel:Port');
  if (port === 0 || !(await isPortInUse(host, port))) return error;
  return new AddressInUseError(
    `${error.message} The Control Panel's port ${port} on ${host} is in use too: choose another with --port.`,
  );
}
