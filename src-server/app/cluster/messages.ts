import type { ActivityName } from '../../core/activities/activities.js';
import type { AuditAgentGroup } from '../../core/audit/audit-entry.js';
import type { HealthCheck } from '../../core/health/health-endpoints.js';
import type { ConfigData } from '../../core/model/config-model.js';
import type { ResolvedSetting } from '../../core/settings/settings.js';
import type { ThrottlePeriod } from '../../gateway/policies/throttle.js';
import type { GatewayEndpoint } from '../../gateway/gateway-manager.js';
import type { ThrottleKey } from '../../gateway/throttle/throttle-store.js';
import type { MonitoringBatch } from './monitoring-batch.js';

/** What the primary of `gatehouse serve --workers N` tells a gateway worker. */
export type ToWorker =
  | {
      type: 'init';
      workerNumber: number;
      dataDir: string;
      /** The API-key digest key (base64), kept in the database the worker does not open. */
      apiKeyDigestKey: string;
      tenantId: string;
      /** The worker's name (`<instance>/w<n>`), for logs and health answers. */
      instance: string;
      /** The instance its monitoring records name: the primary's. */
      recordsInstance: string;
      /** The primary's resolved settings: every worker runs on the same snapshot. */
      settings: ResolvedSetting[];
      config: ConfigData;
      revision: number;
    }
  /** The configuration store changed (until PostgreSQL's LISTEN/NOTIFY tells each instance itself). */
  | { type: 'config'; config: ConfigData; revision: number }
  | { type: 'reply'; id: number; answer: unknown }
  /** Answer `/readyz` with 503 from now on, and keep accepting (the primary's readiness grace). */
  | { type: 'unready' }
  /** Stop accepting, drain, flush, exit. */
  | { type: 'drain' };

/** What a worker tells its primary. */
export type FromWorker =
  /** Its message handler is in place: the primary sends `init` (a message sent earlier could be missed). */
  | { type: 'hello' }
  | { type: 'started'; endpoints: WorkerEndpoint[]; revision: number }
  | { type: 'start-failed'; message: string; code?: string }
  | { type: 'applied'; endpoints: WorkerEndpoint[]; revision: number }
  | { type: 'monitoring'; batch: MonitoringBatch }
  | {
      type: 'agent-event';
      name: Extract<ActivityName, `Agent.${string}`>;
      agentGroup: AuditAgentGroup;
      parameters: Record<string, unknown>;
    }
  | { type: 'request'; id: number; request: WorkerRequest };

export type WorkerRequest =
  { kind: 'storage' } | { kind: 'throttle'; key: ThrottleKey; limit: number; period: ThrottlePeriod };

export type WorkerAnswers = {
  storage: HealthCheck;
  throttle: { allowed: boolean; retryAfterSeconds: number };
};

export interface WorkerEndpoint extends GatewayEndpoint {
  /** Where the primary reaches the listener (a wildcard bind is reached on loopback), for "Try it". */
  local: { host: string; port: number };
}
