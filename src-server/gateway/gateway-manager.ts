import type { Logger } from 'pino';
import type { AuditRecorder } from '../core/audit/audit-recorder.js';
import { AddressInUseError } from '../core/net/listener.js';
import type { HealthCheck, HealthProbe, Readiness } from '../core/health/health-endpoints.js';
import type { MonitoringSink, NewMonitoringRecord } from '../core/monitoring/monitoring-record.js';
import type { AgentGroupRecord, ConfigData, PassthroughRecord } from '../core/model/config-model.js';
import type { ConfigStore } from '../core/config-store/config-store.js';
import type { SecretBox } from '../core/config-store/secret-box.js';
import {
  closeGatewayListener,
  listenGateway,
  type GatewayListener,
  type MalformedRequest,
} from './listener.js';
import type { ApiKeyVerifier } from './policies/api-key-index.js';
import { JwtVerifier } from './policies/jwt-verifier.js';
import { LocalThrottleStore, type ThrottleStore } from './throttle/throttle-store.js';
import { UpstreamProxy } from './proxy/upstream-proxy.js';
import { createGatewayHandler, type GatewayHandlerDeps } from './handler/request-handler.js';
import { createUpgradeHandler } from './handler/upgrade-handler.js';
import { ApiRouteCache } from './runtime/api-route-cache.js';
import { EntryCompiler } from './runtime/entry-compiler.js';
import { TryDrafts } from './runtime/try-drafts.js';
import {
  buildGroupRuntime,
  runtimeFingerprint,
  runtimeInputs,
  sameInputs,
  type GroupRuntime,
} from './runtime/group-runtime.js';
import { TraceWatchers } from '../core/monitoring/trace-watchers.js';

export const DEFAULT_AGENT_GROUP_ID = 'default';

export interface GatewayEndpoint {
  agentGroupId: string;
  name: string;
  url: string;
}

export interface GatewayManagerOptions {
  logger: Logger;
  recorder: Pick<AuditRecorder, 'recordAgentEvent'>;
  /** The configuration and its change notifications (the store itself, or a worker's copy the primary relays). */
  configStore: Pick<ConfigStore, 'data' | 'onChange'>;
  secretBox: SecretBox;
  verifyApiKey: ApiKeyVerifier;
  /** API Monitoring; a sink that drops records until one is given. */
  monitoring?: MonitoringSink;
  /** Address of the default group at start (`Gateway:Host`, `Gateway:Port`; port 0 picks a free one). */
  defaultBinding: { host: string; port: number };
  /** Limits of every listener (`Gateway:MaxConnections`, `Gateway:RequestBodyTimeoutSeconds`); none by default. */
  limits?: { maxConnections: number; requestBodyTimeoutMs: number };
  /** The instance its monitoring records name (`Instance:Id`), where several share one database. */
  instance?: string;
  /** Where API-policy throttling counts; in process when absent. Closed with the gateway. */
  throttle?: ThrottleStore;
  /** For `/readyz` on the listeners: who answers, and whether storage is reachable. */
  health?: { instance: string; storage: () => Promise<HealthCheck> };
  /**
   * How long a listener that stops accepting lets requests in flight finish (`Shutdown:DrainSeconds`); WebSocket
   * sessions last until then when the gateway shuts down.
   */
  drainMs?: number;
}

interface Binding {
  host: string;
  port: number;
}

interface GroupState {
  group: AgentGroupRecord;
  desired: boolean;
  fingerprint: string;
  /** The records the runtime was built from (`runtimeInputs`). */
  inputs: readonly unknown[];
  runtime: GroupRuntime;
  listener?: GatewayListener;
  /** The binding asked for (port 0 stays 0 here while the listener keeps the port it got). */
  binding?: Binding;
}

const DROP_RECORDS: MonitoringSink = { record: () => undefined };

/**
 * One gateway listener per cross-platform agent group, independent of the Control Panel. Each group has an
 * immutable runtime (route table, policies, keys, environment) rebuilt when the configuration store changes and
 * swapped in one assignment: requests in flight keep the runtime they started with. Listeners start, stop and
 * rebind as groups come, go or move; nothing restarts for a configuration change.
 */
export class GatewayManager {
  readonly #groups = new Map<string, GroupState>();
  readonly #compiler = new EntryCompiler();
  readonly #routes = new ApiRouteCache();
  readonly #proxy: UpstreamProxy;
  readonly #jwt: JwtVerifier;
  readonly #throttle: ThrottleStore;
  readonly #applied: { state: GroupState; runtime: GroupRuntime }[] = [];
  /** Monitoring records of single requests, for the editor's "Try it". */
  readonly traces = new TraceWatchers();
  readonly #drafts: TryDrafts;
  #monitoring: MonitoringSink;
  #revision = 0;
  #queue: Promise<void> = Promise.resolve();
  #unsubscribe: (() => void) | undefined;
  #defaultStored: Binding | undefined;
  #closing = false;
  /** Shutting down soon: `/readyz` answers 503 while the listeners still accept (the readiness grace). */
  #unready = false;

  constructor(private readonly options: GatewayManagerOptions) {
    this.#proxy = new UpstreamProxy(options.logger, {
      requestBodyTimeoutMs: options.limits?.requestBodyTimeoutMs ?? 0,
    });
    this.#jwt = new JwtVerifier(options.logger);
    this.#drafts = new TryDrafts({ secretBox: options.secretBox, verifyApiKey: options.verifyApiKey });
    this.#monitoring = options.monitoring ?? DROP_RECORDS;
    this.#throttle = options.throttle ?? new LocalThrottleStore();
  }

  /** Builds every group's runtime and starts its listener; a default listener that cannot start throws. */
  async start(): Promise<void> {
    const { configStore } = this.options;
    const stored = configStore.data.agentGroups.find((group) => group.id === DEFAULT_AGENT_GROUP_ID);
    this.#defaultStored = stored ? { host: stored.host, port: stored.port } : undefined;
    // Built here, reconciled once below: a default listener that can't start is the caller's error to report.
    this.#apply(configStore.data, { reconcile: false });
    this.#unsubscribe = configStore.onChange((data) => this.#apply(data));
    await this.#enqueue(() => this.#reconcile(true), { logFailure: false });
  }

  setMonitoringSink(sink: MonitoringSink): void {
    this.#monitoring = sink;
  }

  endpoints(): GatewayEndpoint[] {
    return [...this.#groups.values()]
      .filter((state) => state.listener !== undefined)
      .sort((a, b) => rank(a) - rank(b) || a.group.name.localeCompare(b.group.name))
      .map((state) => ({ agentGroupId: state.group.id, name: state.group.name, url: state.listener!.url }));
  }

  /**
   * A runtime of the group with `passthrough` in place of its API's saved one, for the one request that carries
   * the returned token (the editor's Try it of a draft; see runtime/try-drafts.ts).
   */
  tryDraft(
    agentGroupId: string,
    data: Readonly<ConfigData>,
    passthrough: PassthroughRecord,
  ): { token: string; release: () => void } | undefined {
    const state = this.#groups.get(agentGroupId);
    if (!state?.listener) return undefined;
    return this.#drafts.register(state.group, state.runtime.summary.revision, data, passthrough);
  }

  /** Where this process reaches a running group's listener (a wildcard bind is reached on loopback). */
  localAddress(agentGroupId: string): { host: string; port: number } | undefined {
    const listener = this.#groups.get(agentGroupId)?.listener;
    if (!listener) return undefined;
    const host = listener.host === '0.0.0.0' ? '127.0.0.1' : listener.host === '::' ? '::1' : listener.host;
    return { host, port: listener.port };
  }

  /** The runtime a new request of the group gets (for diagnostics and tests). */
  runtimeOf(agentGroupId: string): GroupRuntime | undefined {
    return this.#groups.get(agentGroupId)?.runtime;
  }

  /** Resolves once every configuration change so far is applied, listeners included. */
  settled(): Promise<void> {
    return this.#enqueue(() => Promise.resolve());
  }

  /** From now on `/readyz` answers 503 on every listener; they keep accepting until `close()`. */
  announceShutdown(): void {
    this.#unready = true;
  }

  /** Drains every listener at once (stops accepting, lets what is in flight finish), then closes the stores. */
  async close(): Promise<void> {
    this.#closing = true;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    await this.#enqueue(async () => {
      await Promise.all([...this.#groups.values()].map((state) => this.#stopListener(state)));
      this.#groups.clear();
    });
    await this.#proxy.close();
    await this.#throttle.close();
  }

  #enqueue(task: () => Promise<void>, { logFailure = true } = {}): Promise<void> {
    const next = this.#queue.then(task);
    this.#queue = next.catch((error: unknown) => {
      if (logFailure) this.options.logger.error({ err: error }, 'gateway reconfiguration failed');
    });
    return next;
  }

  /** Synchronous, right after the store committed: new runtimes are in place before the next request. */
  #apply(data: Readonly<ConfigData>, { reconcile = true } = {}): void {
    const started = performance.now();
    const desired = new Set<string>();
    this.#compiler.beginBuild();
    this.#routes.beginBuild();
    for (const group of data.agentGroups) {
      if (group.platform !== 'cross-platform') continue;
      desired.add(group.id);
      try {
        this.#applyGroup(data, group);
      } catch (error) {
        this.options.logger.error(
          { err: error, agentGroup: group.id },
          'agent group configuration could not be applied; the previous one stays in force',
        );
      }
    }
    this.#compiler.endBuild();
    this.#routes.endBuild();
    if (data.passthroughs.length > 0) this.#proxy.warmUpSoon();
    this.options.logger.debug(
      { ms: Math.round((performance.now() - started) * 100) / 100 },
      'gateway configuration applied',
    );
    for (const [id, state] of this.#groups) state.desired = desired.has(id);
    if (reconcile) void this.#enqueue(() => this.#reconcile(false));
  }

  #applyGroup(data: Readonly<ConfigData>, group: AgentGroupRecord): void {
    const state = this.#groups.get(group.id);
    const inputs = runtimeInputs(data, group);
    if (state && sameInputs(state.inputs, inputs)) {
      state.group = group;
      this.#routes.retain(state.runtime.routeStamps);
      return;
    }
    const fingerprint = runtimeFingerprint(data, group);
    if (state && state.fingerprint === fingerprint) {
      Object.assign(state, { group, inputs });
      this.#routes.retain(state.runtime.routeStamps);
      return;
    }
    const runtime = buildGroupRuntime(data, group, ++this.#revision, {
      secretBox: this.options.secretBox,
      compiler: this.#compiler,
      routes: this.#routes,
      verifyApiKey: this.options.verifyApiKey,
    });
    if (state) {
      Object.assign(state, { group, fingerprint, inputs, runtime });
      this.#applied.push({ state, runtime });
    } else {
      const created: GroupState = { group, desired: true, fingerprint, inputs, runtime };
      this.#groups.set(group.id, created);
      this.#applied.push({ state: created, runtime });
    }
    for (const invalid of runtime.summary.invalidEntries) {
      this.options.logger.warn(
        { agentGroup: group.id, ...invalid },
        invalid.unreadable
          ? "passthrough entry holds a sealed header value this data dir's key can't decrypt; it answers 503"
          : 'passthrough entry does not compile; it answers 503',
      );
    }
  }

  async #reconcile(starting: boolean): Promise<void> {
    for (const [id, state] of [...this.#groups]) {
      if (!state.desired) {
        await this.#stopListener(state);
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- a configuration change may want the group again while its listener stopped
        if (!state.desired) this.#groups.delete(id);
        continue;
      }
      const binding = this.#bindingOf(state.group);
      try {
        if (!state.listener) await this.#startListener(state, binding);
        else if (binding.host !== state.binding?.host || binding.port !== state.binding.port) {
          await this.#rebind(state, binding);
        }
      } catch (error) {
        if (starting && id === DEFAULT_AGENT_GROUP_ID) throw error;
        this.options.logger.error({ err: error, agentGroup: id }, 'agent group listener could not start');
      }
    }
    for (const { state, runtime } of this.#applied.splice(0)) {
      if (!state.listener || state.runtime !== runtime) continue;
      await this.options.recorder.recordAgentEvent('Agent.ConfigurationApplied', agentGroupOf(state), {
        ...runtime.summary,
      });
    }
  }

  #bindingOf(group: AgentGroupRecord): Binding {
    const stored = this.#defaultStored;
    // The settings (`--gateway-port`) place the default group until its stored address is changed.
    if (
      group.id === DEFAULT_AGENT_GROUP_ID &&
      stored &&
      stored.host === group.host &&
      stored.port === group.port
    ) {
      return this.options.defaultBinding;
    }
    return { host: group.host, port: group.port };
  }

  async #startListener(state: GroupState, binding: Binding): Promise<void> {
    const deps: GatewayHandlerDeps = {
      runtime: () => state.runtime,
      draftRuntime: (req) => this.#drafts.take(state.group.id, req),
      monitoring: { record: (record, traceparent) => this.#report(record, traceparent) },
      proxy: this.#proxy,
      jwt: this.#jwt,
      throttle: this.#throttle,
      logger: this.options.logger,
    };
    const listener = await listenGateway({
      handler: createGatewayHandler(deps),
      upgrade: createUpgradeHandler(deps),
      host: binding.host,
      port: binding.port,
      maxConnections: this.options.limits?.maxConnections ?? 0,
      onMalformed: (malformed) => this.#recordMalformed(state, malformed),
      health: this.#healthProbe(state),
    });
    state.listener = listener;
    state.binding = binding;
    this.options.logger.info({ agentGroup: state.group.name, url: listener.url }, 'gateway listening');
    await this.options.recorder.recordAgentEvent('Agent.Started', agentGroupOf(state), { url: listener.url });
  }

  /** The new address first, so requests keep being served; on the same port the old listener must go first. */
  async #rebind(state: GroupState, binding: Binding): Promise<void> {
    const previous = state.listener;
    try {
      await this.#startListener(state, binding);
    } catch (error) {
      if (!(error instanceof AddressInUseError) || !previous) throw error;
      await this.#stopListener(state);
      await this.#startListener(state, binding);
      return;
    }
    if (previous) await this.#stopGiven(state, previous);
  }

  async #stopListener(state: GroupState): Promise<void> {
    const listener = state.listener;
    if (!listener) return;
    state.listener = undefined;
    state.binding = undefined;
    await this.#stopGiven(state, listener);
  }

  async #stopGiven(state: GroupState, listener: GatewayListener): Promise<void> {
    await closeGatewayListener(listener, { graceMs: this.options.drainMs, drain: this.#closing });
    await this.options.recorder.recordAgentEvent('Agent.Stopped', agentGroupOf(state), { url: listener.url });
  }

  #healthProbe(state: GroupState): HealthProbe {
    const health = this.options.health;
    return {
      instance: health?.instance ?? '',
      readiness: async (): Promise<Readiness> => ({
        runtime: { status: 'pass', detail: `configuration revision ${state.runtime.summary.revision}` },
        storage: health ? await health.storage() : { status: 'pass' },
        draining:
          this.#closing || this.#unready ? { status: 'fail', detail: 'shutting down' } : { status: 'pass' },
      }),
    };
  }

  /** Monitoring must never break a request: a failing sink is logged, the request goes on. */
  #report(record: NewMonitoringRecord, traceparent?: string): void {
    try {
      if (this.options.instance !== undefined) record.instance = this.options.instance;
      this.traces.notify(traceparent, record);
      this.#monitoring.record(record);
    } catch (error) {
      this.options.logger.error({ err: error }, 'monitoring record could not be written');
    }
  }

  #recordMalformed(state: GroupState, malformed: MalformedRequest): void {
    this.#report({
      time: new Date().toISOString(),
      agentGroupId: state.group.id,
      agentGroupName: state.group.name,
      method: '-',
      path: '-',
      status: malformed.status,
      durationMs: 0,
      bytesIn: 0,
      bytesOut: 0,
      outcome: 'refused',
      clientIp: malformed.clientIp.startsWith('::ffff:') ? malformed.clientIp.slice(7) : malformed.clientIp,
      reason: malformed.reason,
    });
  }
}

function agentGroupOf(state: GroupState) {
  return { id: state.group.id, name: state.group.name };
}

function rank(state: GroupState): number {
  return state.group.id === DEFAULT_AGENT_GROUP_ID ? 0 : 1;
}
