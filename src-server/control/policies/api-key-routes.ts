import { LIST_PAGING_QUERY, paginate } from '../../core/http/paging.js';
import { listPageSchema } from '../../core/contracts/paging-schemas.js';
import { stringParam } from '../../core/http/query-params.js';
import { defineRoute, type AnyRoute } from '../http/route.js';
import { IdParams } from '../../core/contracts/common-schemas.js';
import type { ApiKeyRecord } from '../../core/model/config-model.js';
import {
  ApiKeySchema,
  CreateApiKeySchema,
  CreatedApiKeySchema,
} from '../../core/contracts/api-key-schemas.js';
import { toApiKeyDto, type ApiKeyService } from './api-key-service.js';

const TAG = 'ApiKeys';
const BASE = '/api/v1/api-keys';

function resourceOf(key: Pick<ApiKeyRecord, 'id' | 'name'>) {
  return { type: 'ApiKey', id: key.id, name: key.name };
}

export function apiKeyRoutes(keys: ApiKeyService, now: () => Date): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: BASE,
      activity: 'ApiKeys.View',
      tag: TAG,
      operationId: 'listApiKeys',
      summary: 'List API keys (never the keys themselves)',
      query: {
        ...LIST_PAGING_QUERY,
        environmentId: stringParam({ description: 'Only keys of this environment.', maxLength: 100 }),
      },
      responses: [{ status: 200, description: 'API keys by name.', schema: listPageSchema(ApiKeySchema) }],
      handler({ query }) {
        const page = paginate(
          keys.list({ environmentId: query.environmentId }),
          query.PageNumber,
          query.PageSize,
        );
        const at = now();
        return { body: { ...page, data: page.data.map((key) => toApiKeyDto(key, at)) } };
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${BASE}/:id`,
      activity: 'ApiKeys.View',
      tag: TAG,
      operationId: 'getApiKey',
      summary: 'Read an API key (never the key itself)',
      params: IdParams,
      responses: [{ status: 200, description: 'The API key.', schema: ApiKeySchema }],
      problems: [404],
      handler({ params }) {
        return { body: toApiKeyDto(keys.get(params.id), now()) };
      },
    }),
    defineRoute({
      method: 'POST',
      path: BASE,
      activity: 'ApiKeys.Create',
      tag: TAG,
      operationId: 'createApiKey',
      summary: 'Create an API key',
      description:
        'Returns the key once (gatehouse_ followed by 43 characters; keys created by earlier versions start with gh_ and keep working); only its first characters and a digest are kept. policyIds limits it to those policies (each must run in its environment and have an apiKey grant). Names are unique (409, the message under errors.name).',
      body: { kind: 'json', schema: CreateApiKeySchema },
      responses: [
        {
          status: 201,
          description: 'Created; the key is in this response only.',
          schema: CreatedApiKeySchema,
        },
      ],
      problems: [409],
      async handler({ body, audit }) {
        const { record, key } = await keys.create(body);
        audit.resources = [resourceOf(record)];
        audit.extraParameters = { id: record.id, prefix: record.prefix };
        return {
          status: 201,
          body: { apiKey: toApiKeyDto(record, now()), key },
          headers: { Location: `${BASE}/${record.id}` },
        };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: `${BASE}/:id`,
      activity: 'ApiKeys.Delete',
      tag: TAG,
      operationId: 'deleteApiKey',
      summary: 'Revoke an API key',
      params: IdParams,
      responses: [{ status: 204, description: 'Revoked: the gateway refuses the key from now on.' }],
      problems: [404],
      async handler({ params, audit }) {
        audit.resources = [resourceOf(keys.get(params.id))];
        await keys.delete(params.id);
        return { status: 204 };
      },
    }),
  ];
}
