import * as z from 'zod';
import { LIST_PAGING_QUERY, paginate } from '../../core/http/paging.js';
import { listPageSchema } from '../../core/contracts/paging-schemas.js';
import { stringParam } from '../../core/http/query-params.js';
import { defineRoute, type AnyRoute } from '../http/route.js';
import { IdParams } from '../../core/contracts/common-schemas.js';
import type { EnvironmentVariableRecord } from '../../core/model/config-model.js';
import { auditedValues, toEnvironmentVariableDto } from './environment-variable-dto.js';
import {
  CreateEnvironmentVariableSchema,
  EnvironmentVariableSchema,
  ModifyEnvironmentVariableSchema,
  SetValuesSchema,
} from '../../core/contracts/environment-variable-schemas.js';
import type { EnvironmentVariableService } from './environment-variable-service.js';

const TAG = 'EnvironmentVariables';
const BASE = '/api/v1/environment-variables';
const ValueParams = z.object({ id: z.string().min(1).max(100), environmentId: z.string().min(1).max(100) });

function resourceOf(variable: EnvironmentVariableRecord) {
  return { type: 'EnvironmentVariable', id: variable.id, name: variable.name };
}

export function environmentVariableRoutes(variables: EnvironmentVariableService): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: BASE,
      activity: 'EnvironmentVariables.View',
      tag: TAG,
      operationId: 'listEnvironmentVariables',
      summary: 'List environment variables',
      description: 'Values per environment; secret values always read ********.',
      query: {
        ...LIST_PAGING_QUERY,
        search: stringParam({
          description: 'Part of the name or description, ignoring case.',
          maxLength: 200,
        }),
      },
      responses: [
        { status: 200, description: 'Variables by name.', schema: listPageSchema(EnvironmentVariableSchema) },
      ],
      handler({ query }) {
        const page = paginate(variables.list(query.search), query.PageNumber, query.PageSize);
        return { body: { ...page, data: page.data.map(toEnvironmentVariableDto) } };
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${BASE}/:id`,
      activity: 'EnvironmentVariables.View',
      tag: TAG,
      operationId: 'getEnvironmentVariable',
      summary: 'Read an environment variable',
      params: IdParams,
      responses: [{ status: 200, description: 'The variable.', schema: EnvironmentVariableSchema }],
      problems: [404],
      handler({ params }) {
        return { body: toEnvironmentVariableDto(variables.get(params.id)) };
      },
    }),
    defineRoute({
      method: 'POST',
      path: BASE,
      activity: 'EnvironmentVariables.Create',
      tag: TAG,
      operationId: 'createEnvironmentVariable',
      summary: 'Create an environment variable',
      description:
        'A single value (#env.<name>) of a type, or a group of typed members (#env.<name>.<member>). Set values per environment with PUT …/values/{environmentId}.',
      body: { kind: 'json', schema: CreateEnvironmentVariableSchema },
      responses: [{ status: 201, description: 'Created.', schema: EnvironmentVariableSchema }],
      problems: [409],
      async handler({ body, audit }) {
        const created = await variables.create(body);
        audit.resources = [resourceOf(created)];
        audit.extraParameters = { id: created.id };
        return {
          status: 201,
          body: toEnvironmentVariableDto(created),
          headers: { Location: `${BASE}/${created.id}` },
        };
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: `${BASE}/:id`,
      activity: 'EnvironmentVariables.Modify',
      tag: TAG,
      operationId: 'modifyEnvironmentVariable',
      summary: 'Rename an environment variable or change its type or members',
      description:
        'Renaming, or dropping a member, that a passthrough refers to is refused (409). A type change re-checks the stored values (422 when one does not fit; a secret cannot become a non-secret).',
      params: IdParams,
      body: { kind: 'json', schema: ModifyEnvironmentVariableSchema },
      responses: [{ status: 200, description: 'The changed variable.', schema: EnvironmentVariableSchema }],
      problems: [404, 409, 422],
      async handler({ params, body, audit }) {
        audit.resources = [resourceOf(variables.get(params.id))];
        const changed = await variables.modify(params.id, body);
        audit.resources = [resourceOf(changed)];
        return { body: toEnvironmentVariableDto(changed) };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: `${BASE}/:id`,
      activity: 'EnvironmentVariables.Delete',
      tag: TAG,
      operationId: 'deleteEnvironmentVariable',
      summary: 'Delete an environment variable',
      description: 'Refused (409) while a saved passthrough refers to it, naming the passthroughs.',
      params: IdParams,
      responses: [{ status: 204, description: 'Deleted with all its values.' }],
      problems: [404, 409],
      async handler({ params, audit }) {
        audit.resources = [resourceOf(variables.get(params.id))];
        await variables.delete(params.id);
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'PUT',
      path: `${BASE}/:id/values/:environmentId`,
      activity: 'EnvironmentVariables.Modify',
      tag: TAG,
      operationId: 'setEnvironmentVariableValues',
      summary: "Set a variable's value in one environment",
      description:
        '{"value": …} for a single-value variable, {"members": {"<member>": …}} for a group (members left out lose their value here). Values must fit their type; secrets are encrypted, never returned and never audited.',
      params: ValueParams,
      body: { kind: 'json', schema: SetValuesSchema },
      responses: [{ status: 200, description: 'The variable.', schema: EnvironmentVariableSchema }],
      problems: [404, 409],
      async handler({ params, body, audit }) {
        // Masked until the variable's types are known, so no failure path records a secret.
        audit.extraParameters = auditedValues(undefined, body);
        const variable = variables.get(params.id);
        audit.resources = [resourceOf(variable)];
        audit.extraParameters = auditedValues(variable, body);
        const changed = await variables.setValues(params.id, params.environmentId, body);
        return { body: toEnvironmentVariableDto(changed) };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: `${BASE}/:id/values/:environmentId`,
      activity: 'EnvironmentVariables.Modify',
      tag: TAG,
      operationId: 'deleteEnvironmentVariableValues',
      summary: "Remove a variable's value from one environment",
      description: 'Refused (409) when a passthrough running in that environment refers to it.',
      params: ValueParams,
      responses: [{ status: 204, description: 'Removed.' }],
      problems: [404, 409],
      async handler({ params, audit }) {
        audit.resources = [resourceOf(variables.get(params.id))];
        await variables.deleteValues(params.id, params.environmentId);
        return { status: 204 };
      },
    }),
  ];
}
