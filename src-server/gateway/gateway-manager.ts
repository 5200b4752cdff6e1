import type { Logger } from 'pino';
import type { AuditRecorder } from '../audit/audit-recorder.js';
import { closeGracefully, listen, type BoundListener } from '../control-panel/listener.js';
import { PROBLEM_CONTENT_TYPE, HttpProblem, newTraceId } from '../http/problem.js';

export interface AgentGroupBinding {
  id: string;
  name: string;
  host: string;
  port: number;
}

export interface GatewayEndpoint {
  agentGroupId: string;
  name: string;
  url: string;
}

/**
 * One gateway listener per cross-platform agent group. The listeners are independent of the Control Panel:
 * restarting it leaves them serving.
 */
export class GatewayManager {
  readonly #listeners = new Map<string, { group: AgentGroupBinding; bound: BoundListener }>();

  constructor(
    private readonly logger: Logger,
    private readonly recorder: AuditRecorder,
  ) {}

  async startGroup(group: AgentGroupBinding): Promise<GatewayEndpoint> {
    const bound = await listen(
      (req, res) => {
        const problem = new HttpProblem(404, 'No passthrough endpoint matches this request.');
        res.statusCode = problem.status;
        res.setHeader('Content-Type', PROBLEM_CONTENT_TYPE);
        res.end(JSON.stringify(problem.toProblem(req.url?.split('?')[0], newTraceId())));
      },
      group.host,
      group.port,
    );
    this.#listeners.set(group.id, { group, bound });
    this.logger.info({ agentGroup: group.name, url: bound.url }, 'gateway listening');
    await this.recorder.recordAgentEvent(
      'Agent.Started',
      { id: group.id, name: group.name },
      { url: bound.url },
    );
    return { agentGroupId: group.id, name: group.name, url: bound.url };
  }

  endpoints(): GatewayEndpoint[] {
    return [...this.#listeners.values()].map(({ group, bound }) => ({
      agentGroupId: group.id,
      name: group.name,
      url: bound.url,
    }));
  }

  async close(): Promise<void> {
    for (const [id, { group, bound }] of this.#listeners) {
      await closeGracefully(bound.server);
      this.#listeners.delete(id);
      await this.recorder.recordAgentEvent(
        'Agent.Stopped',
        { id: group.id, name: group.name },
        { url: bound.url },
      );
    }
  }
}
