import { LIST_PAGING_QUERY, paginate } from '../../core/http/paging.js';
import { listPageSchema } from '../../core/contracts/paging-schemas.js';
import { stringParam } from '../../core/http/query-params.js';
import { defineRoute, type AnyRoute, type AuditAnnotations } from '../http/route.js';
import { IdParams } from '../../core/contracts/common-schemas.js';
import type { ConfigData, PolicyRecord } from '../../core/model/config-model.js';
import { CreatePolicySchema, ModifyPolicySchema, PolicySchema } from '../../core/contracts/policy-schemas.js';
import type { PolicyService } from './policy-service.js';

const TAG = 'Policies';
const BASE = '/api/v1/policies';

export function policyResource(policy: Pick<PolicyRecord, 'id' | 'name'>) {
  return { type: 'Policy', id: policy.id, name: policy.name };
}

function annotate(audit: AuditAnnotations, data: Readonly<ConfigData>, policy: PolicyRecord): void {
  audit.resources = [policyResource(policy)];
  const group = data.agentGroups.find((candidate) => candidate.id === policy.agentGroupId);
  if (group) audit.agentGroup = { id: group.id, name: group.name };
}

export function policyRoutes(policies: PolicyService, data: () => Readonly<ConfigData>): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: BASE,
      activity: 'Policies.View',
      tag: TAG,
      operationId: 'listPolicies',
      summary: 'List API policies',
      query: {
        ...LIST_PAGING_QUERY,
        agentGroupId: stringParam({ description: 'Only policies of this agent group.', maxLength: 100 }),
      },
      responses: [{ status: 200, description: 'Policies by name.', schema: listPageSchema(PolicySchema) }],
      handler({ query }) {
        return {
          body: paginate(
            policies.list({ agentGroupId: query.agentGroupId }),
            query.PageNumber,
            query.PageSize,
          ),
        };
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${BASE}/:id`,
      activity: 'Policies.View',
      tag: TAG,
      operationId: 'getPolicy',
      summary: 'Read an API policy',
      params: IdParams,
      responses: [{ status: 200, description: 'The policy.', schema: PolicySchema }],
      problems: [404],
      handler({ params }) {
        return { body: policies.get(params.id) };
      },
    }),
    defineRoute({
      method: 'POST',
      path: BASE,
      activity: 'Policies.Create',
      tag: TAG,
      operationId: 'createPolicy',
      summary: 'Create an API policy',
      description:
        'Grants: public, apiKey (header X-API-Key by default, optionally a query parameter) or jwt (issuer, audience, claim rules). Two policies of one agent group cannot cover the same method and path prefix (409).',
      body: { kind: 'json', schema: CreatePolicySchema },
      responses: [{ status: 201, description: 'Created.', schema: PolicySchema }],
      problems: [409],
      async handler({ body, audit }) {
        const created = await policies.create(body);
        annotate(audit, data(), created);
        audit.extraParameters = { id: created.id };
        return { status: 201, body: created, headers: { Location: `${BASE}/${created.id}` } };
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: `${BASE}/:id`,
      activity: 'Policies.Modify',
      tag: TAG,
      operationId: 'modifyPolicy',
      summary: 'Change an API policy',
      params: IdParams,
      body: { kind: 'json', schema: ModifyPolicySchema },
      responses: [{ status: 200, description: 'The changed policy.', schema: PolicySchema }],
      problems: [404, 409],
      async handler({ params, body, audit }) {
        annotate(audit, data(), policies.get(params.id));
        const changed = await policies.modify(params.id, body);
        annotate(audit, data(), changed);
        return { body: changed };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: `${BASE}/:id`,
      activity: 'Policies.Delete',
      tag: TAG,
      operationId: 'deletePolicy',
      summary: 'Delete an API policy',
      description: 'Refused (409) while API keys are limited to it.',
      params: IdParams,
      responses: [{ status: 204, description: 'Deleted.' }],
      problems: [404, 409],
      async handler({ params, audit }) {
        annotate(audit, data(), policies.get(params.id));
        await policies.delete(params.id);
        return { status: 204 };
      },
    }),
  ];
}
