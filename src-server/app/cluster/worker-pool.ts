import cluster, { type Worker } from 'node:cluster';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { ApiKeyDigest } from '../../control/policies/api-key-digest.js';
import { ErrorCode } from '../../core/contracts/error-codes.js';
import { GatehouseError } from '../../core/errors/gatehouse-error.js';
import type { HealthCheck } from '../../core/health/health-endpoints.js';
import { workerInstanceId } from '../../core/instance/instance-id.js';
import { TraceWatchers } from '../../core/monitoring/trace-watchers.js';
import { AddressInUseError } from '../../core/net/listener.js';
import type { SettingsSnapshot } from '../../core/settings/settings.js';
import type { GatewayEndpoint } from '../../gateway/gateway-manager.js';
import { LocalThrottleStore, type ThrottleStore } from '../../gateway/throttle/throttle-store.js';
import { openRateLimitStore } from '../rate-limit-store.js';
import type { GatewayPlane } from '../gateway-plane.js';
import type { Tenant } from '../tenant.js';
import { forEachMonitoringRecord } from './monitoring-batch.js';
import type { FromWorker, ToWorker, WorkerAnswers, WorkerEndpoint, WorkerRequest } from './messages.js';
import { WorkerStartError } from './worker-start-error.js';

export interface WorkerPoolOptions {
  count: number;
  tenant: Tenant;
  settings: SettingsSnapshot;
  instance: string;
  storage: () => Promise<HealthCheck>;
  logger: Logger;
}

interface Slot {
  number: number;
  worker: Worker;
  forkedAt: number;
  /** Sent its init: configuration changes from now on reach it. */
  online: boolean;
  started: boolean;
  applied: number;
  endpoints: WorkerEndpoint[];
  crashes: number;
}

const FIRST_RESTART_DELAY_MS = 500;
const MAX_RESTART_DELAY_MS = 30_000;
/** A worker that ran this long before it died starts again without waiting. */
const STABLE_AFTER_MS = 60_000;

// Round robin by the primary measured faster here than letting the kernel hand out connections (see
// BENCHMARKS.md); NODE_CLUSTER_SCHED_POLICY=none still chooses the other.
if (process.env.NODE_CLUSTER_SCHED_POLICY === undefined) cluster.schedulingPolicy = cluster.SCHED_RR;

/**
 * The primary's side of `gatehouse serve --workers N`: N gateway worker processes on the gateway listener ports
 * (`node:cluster` shares each port among them), each with its own compiled runtime. The primary relays every
 * configuration change to them, writes their audit and monitoring records into the one store, counts throttling
 * for them when Redis is not configured, and restarts a worker that dies (waiting longer after each crash in a
 * row). `close()` drains them all.
 */
export class WorkerPool implements GatewayPlane {
  readonly traces = new TraceWatchers();
  readonly #slots = new Map<number, Slot>();
  #throttle: ThrottleStore = new LocalThrottleStore();
  readonly #settledWaiters = new Set<() => void>();
  #revision = 0;
  #stopping = false;
  #unready = false;
  #unsubscribe: (() => void) | undefined;
  #starting: { resolve: () => void; reject: (error: Error) => void; waiting: number } | undefined;
  #apiKeyDigestKey = '';

  constructor(private readonly options: WorkerPoolOptions) {}

  async start(): Promise<void> {
    this.#apiKeyDigestKey = await ApiKeyDigest.loadSecret(this.options.tenant.keys);
    // Without Redis the workers ask the primary, which counts in PostgreSQL when the database is there (so the
    // limit holds across instances too), else in its memory.
    const { settings, tenant, instance, logger } = this.options;
    if (settings.str('ConnectionStrings:Redis').trim() === '') {
      this.#throttle = await openRateLimitStore({
        settings,
        tenantId: tenant.configStore.data.tenant.id,
        instanceId: instance,
        logger,
        database: tenant.database,
      });
    }
    // From source, the TypeScript entry; built, worker-entry.js beside this bundle, which is serve-cli.cjs too.
    const entry = import.meta.url.endsWith('.ts') ? './worker-entry.ts' : './worker-entry.js';
    cluster.setupPrimary({
      exec: fileURLToPath(new URL(entry, import.meta.url)),
      args: [],
      serialization: 'advanced',
    });
    this.#unsubscribe = this.options.tenant.configStore.onChange(() => this.#broadcastConfig());
    const started = new Promise<void>((resolve, reject) => {
      this.#starting = { resolve, reject, waiting: this.options.count };
    });
    for (let number = 1; number <= this.options.count; number++) this.#fork(number, 0);
    try {
      await started;
    } catch (error) {
      await this.close();
      throw error;
    }
  }

  endpoints(): GatewayEndpoint[] {
    return this.#reported().map(({ local: _local, ...endpoint }) => endpoint);
  }

  /**
   * A draft runtime lives in the process that serves the request, and the kernel or the round robin picks the
   * worker only when the connection arrives: drafts are tried on a gateway in the server's own process.
   */
  tryDraft(): never {
    throw new GatehouseError(
      ErrorCode.GH_ERR_TRY_DRAFT_UNAVAILABLE,
      'Unsaved changes cannot be tried while the gateway runs in worker processes (serve --workers): save them, then try.',
    );
  }

  localAddress(agentGroupId: string): { host: string; port: number } | undefined {
    return this.#reported().find((endpoint) => endpoint.agentGroupId === agentGroupId)?.local;
  }

  /** The pids of the running workers, by worker number. */
  workers(): { number: number; pid: number | undefined }[] {
    return [...this.#slots.values()].map((slot) => ({ number: slot.number, pid: slot.worker.process.pid }));
  }

  settled(): Promise<void> {
    if (this.#allApplied()) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (!this.#allApplied()) return;
        this.#settledWaiters.delete(check);
        resolve();
      };
      this.#settledWaiters.add(check);
    });
  }

  announceShutdown(): void {
    this.#unready = true;
    for (const slot of this.#slots.values()) this.#tell(slot, { type: 'unready' });
  }

  #tell(slot: Slot, message: ToWorker): void {
    if (slot.worker.isConnected()) slot.worker.send(message);
  }

  async close(): Promise<void> {
    this.#stopping = true;
    this.#unsubscribe?.();
    const drainMs = this.options.settings.int('Shutdown:DrainSeconds') * 1000;
    await Promise.all(
      [...this.#slots.values()].map(async ({ worker }) => {
        if (worker.isDead()) return;
        const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
        if (worker.isConnected()) worker.send({ type: 'drain' } satisfies ToWorker);
        // A worker that does not finish draining in time (plus the time to flush) is stopped.
        const timer = setTimeout(() => worker.process.kill('SIGKILL'), drainMs + 5_000);
        await exited;
        clearTimeout(timer);
      }),
    );
    this.#slots.clear();
    await this.#throttle.close();
  }

  #fork(number: number, crashes: number): void {
    const worker = cluster.fork({ GATEHOUSE_WORKER: String(number) });
    const slot: Slot = {
      number,
      worker,
      forkedAt: Date.now(),
      online: false,
      started: false,
      applied: 0,
      endpoints: [],
      crashes,
    };
    this.#slots.set(number, slot);
    const { tenant, settings } = this.options;
    const sendInit = () => {
      slot.online = true;
      worker.send({
        type: 'init',
        workerNumber: number,
        dataDir: tenant.dataDir,
        apiKeyDigestKey: this.#apiKeyDigestKey,
        tenantId: tenant.configStore.data.tenant.id,
        instance: workerInstanceId(this.options.instance, number),
        recordsInstance: this.options.instance,
        settings: settings.all(),
        config: tenant.configStore.data,
        revision: this.#revision,
      } satisfies ToWorker);
    };
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'hello') sendInit();
      else this.#receive(slot, message);
    });
    worker.once('exit', (code, signal) => this.#exited(slot, code, signal));
  }

  #receive(slot: Slot, message: FromWorker): void {
    const { tenant, logger } = this.options;
    switch (message.type) {
      case 'hello':
        return;
      case 'started':
        slot.started = true;
        slot.applied = message.revision;
        slot.endpoints = message.endpoints;
        logger.info({ worker: slot.number, pid: slot.worker.process.pid }, 'gateway worker started');
        if (this.#starting && --this.#starting.waiting === 0) {
          this.#starting.resolve();
          this.#starting = undefined;
        }
        // A worker restarted during the readiness grace is not ready either.
        if (this.#unready) this.#tell(slot, { type: 'unready' });
        this.#notifySettled();
        return;
      case 'start-failed': {
        const error =
          message.code === ErrorCode.GH_ERR_ADDRESS_IN_USE
            ? new AddressInUseError(message.message)
            : new WorkerStartError(`Gateway worker ${slot.number} could not start: ${message.message}`);
        if (this.#starting) {
          this.#starting.reject(error);
          this.#starting = undefined;
        } else logger.error({ worker: slot.number, err: error }, 'gateway worker could not start');
        return;
      }
      case 'applied':
        slot.applied = Math.max(slot.applied, message.revision);
        slot.endpoints = message.endpoints;
        this.#notifySettled();
        return;
      case 'monitoring':
        forEachMonitoringRecord(message.batch, (record, traceparent) => {
          this.traces.notify(traceparent, record);
          tenant.monitoring.record(record);
        });
        return;
      case 'agent-event':
        void tenant.recorder.recordAgentEvent(message.name, message.agentGroup, message.parameters);
        return;
      case 'request':
        void this.#answer(message.request).then(
          (answer) => {
            if (slot.worker.isConnected())
              slot.worker.send({ type: 'reply', id: message.id, answer } satisfies ToWorker);
          },
          (error: unknown) => logger.error({ err: error, worker: slot.number }, 'worker request failed'),
        );
    }
  }

  async #answer(request: WorkerRequest): Promise<WorkerAnswers[keyof WorkerAnswers]> {
    if (request.kind === 'storage') return this.options.storage();
    const verdict = await this.#throttle.take(request.key, request.limit, request.period, Date.now());
    return { allowed: verdict.allowed, retryAfterSeconds: verdict.allowed ? 0 : verdict.retryAfterSeconds };
  }

  #exited(slot: Slot, code: number | null, signal: string | null): void {
    if (this.#slots.get(slot.number) === slot) this.#slots.delete(slot.number);
    this.#notifySettled();
    if (this.#stopping) return;
    const { logger } = this.options;
    if (this.#starting) {
      this.#starting.reject(
        new WorkerStartError(
          `Gateway worker ${slot.number} exited while starting (${exitOf(code, signal)}).`,
        ),
      );
      this.#starting = undefined;
      return;
    }
    const crashes = Date.now() - slot.forkedAt >= STABLE_AFTER_MS ? 0 : slot.crashes + 1;
    const delayMs =
      crashes === 0 ? 0 : Math.min(FIRST_RESTART_DELAY_MS * 2 ** (crashes - 1), MAX_RESTART_DELAY_MS);
    logger.error(
      { worker: slot.number, pid: slot.worker.process.pid, code, signal, restartInMs: delayMs },
      `gateway worker ${slot.number} exited (${exitOf(code, signal)}); starting it again in ${delayMs} ms`,
    );
    setTimeout(() => {
      if (!this.#stopping) this.#fork(slot.number, crashes);
    }, delayMs).unref();
  }

  #broadcastConfig(): void {
    const revision = ++this.#revision;
    const config = this.options.tenant.configStore.data;
    for (const slot of this.#slots.values()) {
      if (slot.online && slot.worker.isConnected())
        slot.worker.send({ type: 'config', config, revision } satisfies ToWorker);
    }
  }

  /** Workers still starting get the configuration in force when they do; they count once started. */
  #allApplied(): boolean {
    return [...this.#slots.values()].every((slot) => !slot.started || slot.applied >= this.#revision);
  }

  #notifySettled(): void {
    for (const waiter of [...this.#settledWaiters]) waiter();
  }

  #reported(): WorkerEndpoint[] {
    for (const slot of this.#slots.values()) if (slot.started) return slot.endpoints;
    return [];
  }
}

function exitOf(code: number | null, signal: string | null): string {
  return signal ? `signal ${signal}` : `exit code ${code}`;
}
