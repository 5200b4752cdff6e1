import { ApiKeyDigest } from '../../control/policies/api-key-digest.js';
import { SecretBox, secretsKeyFile } from '../../core/config-store/secret-box.js';
import { dataDirLayout } from '../../core/data-dir/default-data-dir.js';
import { createLogger } from '../../core/logging/logger.js';
import type { ConfigData } from '../../core/model/config-model.js';
import { SettingsSnapshot } from '../../core/settings/settings.js';
import type { GatewayManager } from '../../gateway/gateway-manager.js';
import {
  GuardedThrottleStore,
  type ThrottleFailureMode,
} from '../../gateway/throttle/guarded-throttle-store.js';
import { startGatewayManager } from '../gateway-plane.js';
import type { FromWorker, ToWorker, WorkerEndpoint } from './messages.js';
import { PrimaryLink, PrimaryThrottleWindow } from './primary-link.js';

/** What the worker's gateway reads for its configuration: the primary's store, relayed on each change. */
class RelayedConfig {
  readonly #listeners = new Set<(data: ConfigData) => void>();

  constructor(public data: ConfigData) {}

  onChange(listener: (data: ConfigData) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  apply(data: ConfigData): void {
    this.data = data;
    for (const listener of this.#listeners) listener(data);
  }
}

const STORAGE_CHECK_TIMEOUT_MS = 3_000;

/**
 * A gateway worker of `gatehouse serve --workers N`: its own compiled runtime and listeners (sharing the
 * primary's ports through `node:cluster`), configuration relayed by the primary, audit and monitoring records
 * sent to it. Signals are the primary's to act on (Ctrl+C reaches the whole process group): the worker drains
 * when the primary says so, or when the primary is gone.
 */
export async function runGatewayWorker(): Promise<void> {
  const ignore = () => undefined;
  process.on('SIGINT', ignore);
  process.on('SIGTERM', ignore);
  const init = await new Promise<Extract<ToWorker, { type: 'init' }>>((resolve) => {
    const onInit = (message: ToWorker) => {
      if (message.type !== 'init') return;
      process.off('message', onInit);
      resolve(message);
    };
    process.on('message', onInit);
    process.send!({ type: 'hello' } satisfies FromWorker);
  });
  const settings = new SettingsSnapshot(new Map(init.settings.map((setting) => [setting.key, setting])));
  const logger = createLogger(settings.str('Logging:Level')).child({ instance: init.instance });
  const link = new PrimaryLink(logger);
  const config = new RelayedConfig(init.config);
  let revision = init.revision;
  let gateway: GatewayManager | undefined;
  let draining: Promise<void> | undefined;
  const drain = () => {
    draining ??= (async () => {
      await gateway?.close();
      await link.flushMonitoring();
      process.disconnect();
      process.exit(0);
    })();
    return draining;
  };
  // Changes that come while the gateway starts are in `config.data` when it reads it, or reach its listener.
  process.on('message', (message: ToWorker) => {
    if (message.type === 'reply') link.answered(message);
    else if (message.type === 'config') {
      revision = message.revision;
      config.apply(message.config);
      const applied = revision;
      const started = gateway;
      if (started)
        void started
          .settled()
          .then(() => link.send({ type: 'applied', endpoints: endpointsOf(started), revision: applied }));
    } else if (message.type === 'unready') gateway?.announceShutdown();
    else if (message.type === 'drain') void drain();
  });
  // The primary died without telling: nothing relays configuration or records any more.
  process.on('disconnect', () => {
    if (draining) return;
    logger.error('the primary process is gone; this gateway worker drains and exits');
    void drain();
  });

  try {
    gateway = await startGatewayManager({
      secretBox: await SecretBox.open(
        secretsKeyFile(dataDirLayout(init.dataDir).keysDir, settings.str('Secrets:KeyFile')),
      ),
      apiKeyDigest: ApiKeyDigest.fromSecret(init.apiKeyDigestKey),
      tenantId: init.tenantId,
      settings,
      instance: init.instance,
      recordsInstance: init.recordsInstance,
      logger,
      configStore: config,
      recorder: {
        recordAgentEvent: (name, agentGroup, parameters) =>
          link.send({
            type: 'agent-event',
            name,
            agentGroup,
            parameters: { ...parameters, instance: init.instance },
          }),
      },
      monitoring: link,
      storage: () =>
        link.ask({ kind: 'storage' }, STORAGE_CHECK_TIMEOUT_MS).catch((error: unknown) => ({
          status: 'fail' as const,
          detail: (error as Error).message,
        })),
      sharedThrottle: () =>
        new GuardedThrottleStore(new PrimaryThrottleWindow(link, settings.int('RateLimiting:TimeoutMs')), {
          failureMode: settings.str('RateLimiting:FailureMode') as ThrottleFailureMode,
          timeoutMs: settings.int('RateLimiting:TimeoutMs'),
          logger,
        }),
    });
  } catch (error) {
    await link.send({
      type: 'start-failed',
      message: (error as Error).message,
      code: (error as { code?: string }).code,
    });
    process.exit(1);
  }

  await link.send({ type: 'started', endpoints: endpointsOf(gateway), revision });
}

function endpointsOf(gateway: GatewayManager): WorkerEndpoint[] {
  return gateway.endpoints().map((endpoint) => ({
    ...endpoint,
    local: gateway.localAddress(endpoint.agentGroupId) ?? { host: '127.0.0.1', port: 0 },
  }));
}
