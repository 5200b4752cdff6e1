import { LIST_PAGING_QUERY, paginate } from '../../core/http/paging.js';
import { listPageSchema } from '../../core/contracts/paging-schemas.js';
import { defineRoute, type AnyRoute } from '../http/route.js';
import { IdParams } from '../../core/contracts/common-schemas.js';
import type { EnvironmentRecord } from '../../core/model/config-model.js';
import {
  CreateEnvironmentSchema,
  EnvironmentSchema,
  ModifyEnvironmentSchema,
} from '../../core/contracts/environment-schemas.js';
import type { EnvironmentService } from './environment-service.js';

const TAG = 'Environments';

function resourceOf(environment: EnvironmentRecord) {
  return { type: 'Environment', id: environment.id, name: environment.name };
}

export function environmentRoutes(environments: EnvironmentService): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/environments',
      activity: 'Environments.View',
      tag: TAG,
      operationId: 'listEnvironments',
      summary: 'List environments',
      query: LIST_PAGING_QUERY,
      responses: [
        { status: 200, description: 'Environments by name.', schema: listPageSchema(EnvironmentSchema) },
      ],
      handler({ query }) {
        return { body: paginate(environments.list(), query.PageNumber, query.PageSize) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/environments/:id',
      activity: 'Environments.View',
      tag: TAG,
      operationId: 'getEnvironment',
      summary: 'Read an environment',
      params: IdParams,
      responses: [{ status: 200, description: 'The environment.', schema: EnvironmentSchema }],
      problems: [404],
      handler({ params }) {
        return { body: environments.get(params.id) };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/environments',
      activity: 'Environments.Create',
      tag: TAG,
      operationId: 'createEnvironment',
      summary: 'Create an environment',
      body: { kind: 'json', schema: CreateEnvironmentSchema },
      responses: [{ status: 201, description: 'Created.', schema: EnvironmentSchema }],
      problems: [409],
      async handler({ body, audit }) {
        const created = await environments.create(body);
        audit.resources.push(resourceOf(created));
        audit.extraParameters = { id: created.id };
        return { status: 201, body: created, headers: { Location: `/api/v1/environments/${created.id}` } };
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: '/api/v1/environments/:id',
      activity: 'Environments.Modify',
      tag: TAG,
      operationId: 'modifyEnvironment',
      summary: 'Rename an environment or change its description',
      params: IdParams,
      body: { kind: 'json', schema: ModifyEnvironmentSchema },
      responses: [{ status: 200, description: 'The changed environment.', schema: EnvironmentSchema }],
      problems: [404, 409],
      async handler({ params, body, audit }) {
        audit.resources = [resourceOf(environments.get(params.id))];
        const changed = await environments.modify(params.id, body);
        audit.resources = [resourceOf(changed)];
        return { body: changed };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v1/environments/:id',
      activity: 'Environments.Delete',
      tag: TAG,
      operationId: 'deleteEnvironment',
      summary: 'Delete an environment',
      description:
        'Refused (409) while agent groups run in it or API keys belong to it. Its environment variable values are deleted with it.',
      params: IdParams,
      responses: [{ status: 204, description: 'Deleted.' }],
      problems: [404, 409],
      async handler({ params, audit }) {
        audit.resources = [resourceOf(environments.get(params.id))];
        await environments.delete(params.id);
        return { status: 204 };
      },
    }),
  ];
}
