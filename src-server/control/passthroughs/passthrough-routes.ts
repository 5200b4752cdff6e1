import * as z from 'zod';
import { defineRoute, type AnyRoute, type AuditAnnotations } from '../http/route.js';
import { policyResource } from '../policies/policy-routes.js';
import type { ApiRecord, ConfigData, PassthroughRecord } from '../../core/model/config-model.js';
import { toPassthroughDto } from './credential-headers.js';
import type { PassthroughService } from './passthrough-service.js';
import {
  CreatedPassthroughSchema,
  CreatePassthroughDoc,
  PassthroughSchema,
  ReplacePassthroughDoc,
} from '../../core/contracts/passthrough-schemas.js';

const TAG = 'Passthroughs';
const PATH = '/api/v1/apis/:apiId/passthrough';
const ApiIdParams = z.object({ apiId: z.string().min(1).max(100) });

const VALIDATION_NOTE =
  'Operation keys must be operations of the API. Header names are RFC 9110 tokens (hop-by-hop headers, Host and Content-Length cannot be changed); Remove has no value, Add and Overwrite need one. Template errors are keyed by field (operations["GET /orders/{id}"].target.section3) and name the section and the 0-based position. Saving deploys to the API\'s agent groups: refused (422) on a legacy agent group, or when a referenced #env value is missing in an agent group\'s environment.';

function annotate(
  audit: AuditAnnotations,
  data: Readonly<ConfigData>,
  api: ApiRecord,
  passthrough?: Pick<PassthroughRecord, 'id'>,
): void {
  audit.resources = passthrough ? [{ type: 'Passthrough', id: passthrough.id, name: api.name }] : [];
  audit.resources.push({ type: 'Api', id: api.id, name: api.name });
  const group = data.agentGroups.find((candidate) => candidate.id === api.agentGroupIds[0]);
  if (group) audit.agentGroup = { id: group.id, name: group.name };
}

export function passthroughRoutes(passthroughs: PassthroughService): AnyRoute[] {
  const apiOf = (apiId: string) => passthroughs.data.apis.find((api) => api.id === apiId);
  return [
    defineRoute({
      method: 'GET',
      path: PATH,
      activity: 'Passthroughs.View',
      tag: TAG,
      operationId: 'getPassthrough',
      summary: "Read an API's Passthrough configuration",
      params: ApiIdParams,
      responses: [{ status: 200, description: 'The configuration.', schema: PassthroughSchema }],
      problems: [404],
      handler({ params }) {
        return { body: toPassthroughDto(passthroughs.get(params.apiId).passthrough) };
      },
    }),
    defineRoute({
      method: 'POST',
      path: PATH,
      activity: 'Passthroughs.Create',
      tag: TAG,
      operationId: 'createPassthrough',
      summary: 'Create a Passthrough API configuration',
      description: `${VALIDATION_NOTE} With a policy in the body, the API policy is created in the same change.`,
      params: ApiIdParams,
      body: { kind: 'json', schema: CreatePassthroughDoc },
      responses: [{ status: 201, description: 'Created (and deployed).', schema: CreatedPassthroughSchema }],
      problems: [404, 409, 422],
      async handler({ params, body, audit }) {
        const api = apiOf(params.apiId);
        if (api) annotate(audit, passthroughs.data, api);
        const created = await passthroughs.create(params.apiId, body);
        annotate(audit, passthroughs.data, apiOf(params.apiId)!, created.passthrough);
        if (created.policy) audit.resources.splice(1, 0, policyResource(created.policy));
        audit.extraParameters = {
          id: created.passthrough.id,
          ...(created.policy ? { policyId: created.policy.id } : {}),
        };
        return {
          status: 201,
          body: {
            passthrough: toPassthroughDto(created.passthrough),
            ...(created.policy ? { policy: created.policy } : {}),
          },
          headers: { Location: `/api/v1/apis/${params.apiId}/passthrough` },
        };
      },
    }),
    defineRoute({
      method: 'PUT',
      path: PATH,
      activity: 'Passthroughs.Modify',
      tag: TAG,
      operationId: 'replacePassthrough',
      summary: 'Modify a Passthrough API configuration (full replace)',
      description: `${VALIDATION_NOTE} A credential header value sent as ******** keeps the stored value.`,
      params: ApiIdParams,
      body: { kind: 'json', schema: ReplacePassthroughDoc },
      responses: [
        { status: 200, description: 'The new configuration (deployed).', schema: PassthroughSchema },
      ],
      problems: [404, 409, 422],
      async handler({ params, body, audit }) {
        const { api, passthrough } = passthroughs.get(params.apiId);
        annotate(audit, passthroughs.data, api, passthrough);
        const changed = await passthroughs.replace(params.apiId, body);
        return { body: toPassthroughDto(changed) };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: PATH,
      activity: 'Passthroughs.Delete',
      tag: TAG,
      operationId: 'deletePassthrough',
      summary: 'Delete a Passthrough API configuration',
      description: 'The API stays; its requests are no longer forwarded.',
      params: ApiIdParams,
      responses: [{ status: 204, description: 'Deleted.' }],
      problems: [404],
      async handler({ params, audit }) {
        const { api, passthrough } = passthroughs.get(params.apiId);
        annotate(audit, passthroughs.data, api, passthrough);
        await passthroughs.delete(params.apiId);
        return { status: 204 };
      },
    }),
  ];
}
