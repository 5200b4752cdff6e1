import type { Logger } from 'pino';
import type { Activity, ActivityName } from '../activities/activities.js';
import { getActivity } from '../activities/activities.js';
import { ANONYMOUS_USER_NAME } from '../http/principal.js';
import type { RequestAuditRecord } from './request-audit-record.js';
import type { AuditAgentGroup, AuditEntry, AuditResource, AuditStore } from './audit-entry.js';
import { boundParameters } from './bound-parameters.js';
import { maskParameters } from './mask-secrets.js';

export const SYSTEM_USER_NAME = 'system';

/** Writes audit entries: one per modifying management request, and agent events. */
export class AuditRecorder {
  constructor(
    private readonly store: AuditStore,
    private readonly logger: Logger,
    private readonly now: () => Date = () => new Date(),
    /** The instance recording (`Instance:Id`); offline tools record without one. */
    private readonly instance?: string,
  ) {}

  #instance(): { instance?: string } {
    return this.instance === undefined ? {} : { instance: this.instance };
  }

  async recordRequest(record: RequestAuditRecord): Promise<AuditEntry> {
    return this.store.append({
      actionName: record.activity.name,
      userName: record.principal?.userName ?? record.annotations.userName ?? ANONYMOUS_USER_NAME,
      timestamp: this.now().toISOString(),
      parameters: boundParameters(maskParameters(record.parameters)),
      resources: record.annotations.resources,
      ...(record.annotations.agentGroup ? { agentGroup: record.annotations.agentGroup } : {}),
      category: categoryOf(record.activity, record.annotations.resources),
      statusCode: record.statusCode,
      ...this.#instance(),
    });
  }

  /** Agent events (listener started/stopped, configuration applied). Failures are logged, never thrown. */
  async recordAgentEvent(
    actionName: Extract<ActivityName, `Agent.${string}`>,
    agentGroup: AuditAgentGroup,
    parameters: Record<string, unknown>,
  ): Promise<void> {
    try {
      await this.store.append({
        actionName,
        userName: SYSTEM_USER_NAME,
        timestamp: this.now().toISOString(),
        parameters: maskParameters(parameters),
        resources: [{ type: 'AgentGroup', id: agentGroup.id, name: agentGroup.name }],
        agentGroup,
        category: getActivity(actionName).category,
        ...this.#instance(),
      });
    } catch (error) {
      this.logger.error(
        { err: error, actionName, agentGroup: agentGroup.id },
        'agent event could not be audited',
      );
    }
  }

  /** Records an offline operator action (CLI), e.g. a setting changed while the server was stopped. */
  async recordOfflineAction(
    actionName: ActivityName,
    userName: string,
    parameters: Record<string, unknown>,
    resources: AuditResource[] = [],
  ): Promise<AuditEntry> {
    const activity = getActivity(actionName);
    return this.store.append({
      actionName,
      userName,
      timestamp: this.now().toISOString(),
      parameters: maskParameters(parameters),
      resources,
      category: categoryOf(activity, resources),
      statusCode: 200,
    });
  }
}

/** A configuration activity that names no resource has nothing to keep it alive: it ages like a general entry. */
function categoryOf(activity: Activity, resources: AuditResource[]) {
  return activity.category === 'configuration' && resources.length === 0 ? 'general' : activity.category;
}
