import type { Logger } from 'pino';
import type { AuditRecorder } from '../core/audit/audit-recorder.js';
import type { ConfigStore } from '../core/config-store/config-store.js';
import type { SecretBox } from '../core/config-store/secret-box.js';
import type { HealthCheck } from '../core/health/health-endpoints.js';
import type { MonitoringSink } from '../core/monitoring/monitoring-record.js';
import type { SettingsSnapshot } from '../core/settings/settings.js';
import type { TryItGateway } from '../control/passthroughs/try-it/try-it-routes.js';
import type { ApiKeyDigest } from '../control/policies/api-key-digest.js';
import { isWellFormedApiKey } from '../control/policies/api-key-digest.js';
import { GatewayManager, type GatewayEndpoint } from '../gateway/gateway-manager.js';
import type { ThrottleStore } from '../gateway/throttle/throttle-store.js';
import { openRateLimitStore } from './rate-limit-store.js';
import type { Database } from '../core/storage/database.js';
import { followGatewayLoad } from '../core/threads/young-generation-follows-load.js';

/**
 * The data plane as the composition root sees it: in this process (`GatewayManager`), or in worker processes
 * (`gatehouse serve --workers N`). The Control Panel reaches it only through `TryItGateway`.
 */
export interface GatewayPlane extends TryItGateway {
  endpoints: () => GatewayEndpoint[];
  /** Resolves once every configuration change so far is applied, listeners included. */
  settled: () => Promise<void>;
  /** `/readyz` answers 503 on every listener from now on, while they keep accepting (the readiness grace). */
  announceShutdown: () => void;
  /** Stops accepting and drains for at most `Shutdown:DrainSeconds`. */
  close: () => Promise<void>;
}

/** What any gateway process needs, wherever its configuration, audit and monitoring records come from. */
export interface GatewayProcessParts {
  tenantId: string;
  settings: SettingsSnapshot;
  /** This process's name (`Instance:Id`, a worker's with `/w<n>`), for logs and health answers. */
  instance: string;
  /** The instance its monitoring records name (`Instance:Id`: a worker's records name its primary's). */
  recordsInstance: string;
  logger: Logger;
  configStore: Pick<ConfigStore, 'data' | 'onChange'>;
  recorder: Pick<AuditRecorder, 'recordAgentEvent'>;
  monitoring: MonitoringSink;
  storage: () => Promise<HealthCheck>;
  /** Opens sealed header values (the tenant's; a worker opens the same key file). */
  secretBox: SecretBox;
  /** Verifies API keys (the tenant's key; a worker is handed it by the primary). */
  apiKeyDigest: ApiKeyDigest;
  /** Where throttling counts when Redis is not configured (a worker: its primary); else see `database`. */
  sharedThrottle?: () => ThrottleStore;
  /** The tenant's database (in the process that opened it): on PostgreSQL, without Redis, throttling counts there. */
  database?: Database;
}

/** Builds a gateway from the data dir's keys and the settings, and starts its listeners. */
export async function startGatewayManager(parts: GatewayProcessParts): Promise<GatewayManager> {
  const { settings, logger } = parts;
  const { apiKeyDigest, secretBox } = parts;
  const redisConfigured = settings.str('ConnectionStrings:Redis').trim() !== '';
  const throttle =
    !redisConfigured && parts.sharedThrottle
      ? parts.sharedThrottle()
      : await openRateLimitStore({
          settings,
          tenantId: parts.tenantId,
          instanceId: parts.instance,
          logger,
          database: parts.database,
        });
  const gateway = new GatewayManager({
    logger,
    recorder: parts.recorder,
    configStore: parts.configStore,
    secretBox,
    monitoring: countingRequestsForHeapSizing(parts.monitoring),
    verifyApiKey: (presented, record) =>
      isWellFormedApiKey(presented) && apiKeyDigest.verifyApiKey(presented, record.digest),
    defaultBinding: { host: settings.str('Gateway:Host'), port: settings.int('Gateway:Port') },
    limits: {
      maxConnections: settings.int('Gateway:MaxConnections'),
      requestBodyTimeoutMs: settings.int('Gateway:RequestBodyTimeoutSeconds') * 1000,
    },
    throttle,
    health: { instance: parts.instance, storage: parts.storage },
    instance: parts.recordsInstance,
    drainMs: settings.int('Shutdown:DrainSeconds') * 1000,
  });
  try {
    await gateway.start();
  } catch (error) {
    await gateway.close();
    throw error;
  }
  return gateway;
}

/** Every gateway request passes its monitoring sink: there `serve`'s heap sizing learns the gateway's load. */
function countingRequestsForHeapSizing(sink: MonitoringSink): MonitoringSink {
  const countRequest = followGatewayLoad();
  if (!countRequest) return sink;
  return {
    record: (record, traceparent) => {
      countRequest();
      sink.record(record, traceparent);
    },
  };
}
