import { LIST_PAGING_QUERY, paginate } from '../../core/http/paging.js';
import { listPageSchema } from '../../core/contracts/paging-schemas.js';
import { stringParam } from '../../core/http/query-params.js';
import { defineRoute, type AnyRoute, type AuditAnnotations } from '../http/route.js';
import { IdParams } from '../../core/contracts/common-schemas.js';
import type { AgentGroupRecord } from '../../core/model/config-model.js';
import {
  AgentGroupSchema,
  CreateAgentGroupSchema,
  ModifyAgentGroupSchema,
} from '../../core/contracts/agent-group-schemas.js';
import type { AgentGroupService } from './agent-group-service.js';
import { urlOf } from '../../core/net/listener.js';

const TAG = 'AgentGroups';

/** What the agent group routes need from the gateway: where a group listens, once changes are applied. */
export interface GatewayListeners {
  localAddress: (agentGroupId: string) => { host: string; port: number } | undefined;
  /** Resolves once every configuration change so far is applied, listeners included. */
  settled: () => Promise<void>;
}

function resourceOf(group: AgentGroupRecord) {
  return { type: 'AgentGroup', id: group.id, name: group.name };
}

function annotate(audit: AuditAnnotations, group: AgentGroupRecord): void {
  audit.resources = [resourceOf(group)];
  audit.agentGroup = { id: group.id, name: group.name };
}

export function agentGroupRoutes(groups: AgentGroupService, listeners: GatewayListeners): AnyRoute[] {
  const withListener = (group: AgentGroupRecord) => {
    const address = group.platform === 'cross-platform' ? listeners.localAddress(group.id) : undefined;
    return { ...group, listenerUrl: address ? urlOf(address.host, address.port) : null };
  };
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/agent-groups',
      activity: 'AgentGroups.View',
      tag: TAG,
      operationId: 'listAgentGroups',
      summary: 'List agent groups',
      query: {
        ...LIST_PAGING_QUERY,
        environmentId: stringParam({
          description: 'Only groups running in this environment.',
          maxLength: 100,
        }),
      },
      responses: [
        { status: 200, description: 'Agent groups by name.', schema: listPageSchema(AgentGroupSchema) },
      ],
      handler({ query }) {
        const list = groups.list({ environmentId: query.environmentId }).map(withListener);
        return { body: paginate(list, query.PageNumber, query.PageSize) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/agent-groups/:id',
      activity: 'AgentGroups.View',
      tag: TAG,
      operationId: 'getAgentGroup',
      summary: 'Read an agent group',
      params: IdParams,
      responses: [{ status: 200, description: 'The agent group.', schema: AgentGroupSchema }],
      problems: [404],
      handler({ params }) {
        return { body: withListener(groups.get(params.id)) };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/agent-groups',
      activity: 'AgentGroups.Create',
      tag: TAG,
      operationId: 'createAgentGroup',
      summary: 'Create an agent group',
      description:
        'A cross-platform group gets its own gateway listener on host:port (127.0.0.1 and a free port by default); two cross-platform groups cannot share an address (409).',
      body: { kind: 'json', schema: CreateAgentGroupSchema },
      responses: [{ status: 201, description: 'Created.', schema: AgentGroupSchema }],
      problems: [409],
      async handler({ body, audit }) {
        const created = await groups.create(body);
        annotate(audit, created);
        audit.extraParameters = { id: created.id };
        await listeners.settled();
        return {
          status: 201,
          body: withListener(created),
          headers: { Location: `/api/v1/agent-groups/${created.id}` },
        };
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: '/api/v1/agent-groups/:id',
      activity: 'AgentGroups.Modify',
      tag: TAG,
      operationId: 'modifyAgentGroup',
      summary: 'Change an agent group',
      description:
        'Changes apply to the gateway live. Moving a group to another environment or to the legacy platform is refused (422) when a passthrough deployed to it could no longer run.',
      params: IdParams,
      body: { kind: 'json', schema: ModifyAgentGroupSchema },
      responses: [{ status: 200, description: 'The changed agent group.', schema: AgentGroupSchema }],
      problems: [404, 409, 422],
      async handler({ params, body, audit }) {
        annotate(audit, groups.get(params.id));
        const changed = await groups.modify(params.id, body);
        annotate(audit, changed);
        await listeners.settled();
        return { body: withListener(changed) };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v1/agent-groups/:id',
      activity: 'AgentGroups.Delete',
      tag: TAG,
      operationId: 'deleteAgentGroup',
      summary: 'Delete an agent group',
      description: 'Refused (409) for the default group and for groups that APIs or policies use.',
      params: IdParams,
      responses: [{ status: 204, description: 'Deleted; its listener stops.' }],
      problems: [404, 409],
      async handler({ params, audit }) {
        annotate(audit, groups.get(params.id));
        await groups.delete(params.id);
        return { status: 204 };
      },
    }),
  ];
}
