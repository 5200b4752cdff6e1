import { LIST_PAGING_QUERY, paginate } from '../../../core/http/paging.js';
import { listPageSchema } from '../../../core/contracts/paging-schemas.js';
import { stringParam } from '../../../core/http/query-params.js';
import { defineRoute, type AnyRoute } from '../../http/route.js';
import { IdParams } from '../../../core/contracts/common-schemas.js';
import { toApiDto, toApiSummary } from '../api-dto.js';
import type { ApiCatalogService } from '../api-catalog-service.js';
import type { ApiImportService } from '../api-import-service.js';
import {
  API_DOCUMENT_BODY,
  ApiSchema,
  ApiSummarySchema,
  ImportResultSchema,
  ModifyApiSchema,
  ReimportResultSchema,
} from '../../../core/contracts/api-schemas.js';
import { UrlImportAndApplySchema } from '../../../core/contracts/api-import-schemas.js';
import { annotateApi, apiResource, mediaTypeOf } from './api-audit.js';
import type { RawBody } from '../../http/read-raw-body.js';

const TAG = 'Apis';
const BASE = '/api/v1/apis';

export function apiRoutes(catalog: ApiCatalogService, importer: ApiImportService): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: BASE,
      activity: 'Apis.View',
      tag: TAG,
      operationId: 'listApis',
      summary: 'List API definitions',
      query: {
        ...LIST_PAGING_QUERY,
        agentGroupId: stringParam({ description: 'Only APIs assigned to this agent group.', maxLength: 100 }),
        search: stringParam({
          description: 'Part of the name, base path or description, ignoring case.',
          maxLength: 200,
        }),
      },
      responses: [
        {
          status: 200,
          description: 'APIs by name, without operations.',
          schema: listPageSchema(ApiSummarySchema),
        },
      ],
      handler({ query }) {
        const page = paginate(
          catalog.list({ agentGroupId: query.agentGroupId, search: query.search }),
          query.PageNumber,
          query.PageSize,
        );
        return { body: { ...page, data: page.data.map((api) => toApiSummary(catalog.data, api)) } };
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${BASE}/:id`,
      activity: 'Apis.View',
      tag: TAG,
      operationId: 'getApi',
      summary: 'Read an API definition with its operations',
      params: IdParams,
      responses: [{ status: 200, description: 'The API.', schema: ApiSchema }],
      problems: [404],
      handler({ params }) {
        return { body: toApiDto(catalog.data, catalog.get(params.id)) };
      },
    }),
    defineRoute({
      method: 'POST',
      path: BASE,
      activity: 'Apis.Import',
      tag: TAG,
      operationId: 'importApi',
      summary: 'Import an API definition from an OpenAPI document',
      description:
        'Send the OpenAPI 3.2, 3.1, 3.0 or Swagger 2.0 document itself (JSON or YAML, up to 25 MiB) as the body. It is refused (400, reasons keyed by JSON pointer; syntax errors name the line and column) only when nothing usable can be taken from it; every other problem is a warning, and operations the gateway cannot expose are listed as skipped. The base path must not overlap another API of the agent group (409).',
      query: {
        fileName: stringParam({ description: 'The file name, for naming an untitled API.', maxLength: 260 }),
        agentGroupId: stringParam({
          description: 'Agent group to assign the API to (default: default).',
          maxLength: 100,
        }),
        name: stringParam({
          description: "The API's name (default: the document's info.title).",
          maxLength: 200,
        }),
      },
      body: API_DOCUMENT_BODY,
      responses: [{ status: 201, description: 'Imported.', schema: ImportResultSchema }],
      problems: [409, 413, 415],
      async handler({ req, query, body, audit }) {
        const { chunks, byteLength: documentBytes } = body as RawBody;
        const outcome = await importer.importDocument(
          {
            content: chunks,
            mediaType: mediaTypeOf(req.headers['content-type']),
            ...(query.fileName ? { fileName: query.fileName } : {}),
          },
          { agentGroupId: query.agentGroupId, name: query.name?.trim() || undefined },
        );
        const { api } = outcome;
        annotateApi(audit, catalog.data, api);
        audit.extraParameters = {
          id: api.id,
          name: api.name,
          basePath: api.basePath,
          operationCount: api.operations.length,
          documentBytes,
        };
        return {
          status: 201,
          body: { api: toApiDto(catalog.data, api), warnings: outcome.warnings, skipped: outcome.skipped },
          headers: { Location: `${BASE}/${api.id}` },
        };
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${BASE}/from-url`,
      activity: 'Apis.Import',
      tag: TAG,
      operationId: 'importApiFromUrl',
      summary: 'Import an API definition from a URL, or re-import the API imported from that URL',
      description:
        'Loads the description (and the files its $refs name, relative to it) and imports it in one step: a new API (201), or a new revision of the API imported from the same URL before (200; its passthrough entries are kept where their operations still are). Limits: 25 MiB over all files, 30 s per file; a host that resolves to a loopback or private address needs allowPrivateAddress (422 with reason private-address otherwise). The console does the same in steps, showing the changes first (/api/v1/api-imports).',
      body: { kind: 'json', schema: UrlImportAndApplySchema },
      responses: [
        { status: 201, description: 'Imported.', schema: ImportResultSchema },
        { status: 200, description: 'Re-imported.', schema: ReimportResultSchema },
      ],
      problems: [409, 413, 422],
      async handler({ body, audit }) {
        const prepared = await importer.prepare({
          kind: 'url',
          url: body.url,
          allowPrivateAddress: body.allowPrivateAddress === true,
        });
        const existing = prepared.source.url ? importer.findBySourceUrl(prepared.source.url) : undefined;
        if (existing) {
          annotateApi(audit, catalog.data, existing);
          const outcome = await importer.reimport(
            existing.id,
            prepared,
            body.name ? { name: body.name } : {},
          );
          annotateApi(audit, catalog.data, outcome.api);
          audit.extraParameters = {
            revision: outcome.api.revision,
            added: outcome.added.length,
            removed: outcome.removed.length,
          };
          return { body: { ...outcome, api: toApiDto(catalog.data, outcome.api) } };
        }
        const outcome = await importer.create(prepared, {
          ...(body.agentGroupId ? { agentGroupId: body.agentGroupId } : {}),
          ...(body.name ? { name: body.name } : {}),
        });
        annotateApi(audit, catalog.data, outcome.api);
        audit.extraParameters = {
          id: outcome.api.id,
          basePath: outcome.api.basePath,
          operationCount: outcome.api.operations.length,
        };
        return {
          status: 201,
          body: { ...outcome, api: toApiDto(catalog.data, outcome.api) },
          headers: { Location: `${BASE}/${outcome.api.id}` },
        };
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: `${BASE}/:id`,
      activity: 'Apis.Modify',
      tag: TAG,
      operationId: 'modifyApi',
      summary: "Change an API's name, description, agent groups or monitoring capture",
      description:
        '`monitoringCapture` turns on (or off) keeping request and response headers and bodies with its monitoring records: off by default, bodies cut at `maxBodyBytes` per direction, credential headers and secret values masked. New agent groups are checked like an import (409 on overlapping base paths). An API with a passthrough cannot move to a legacy agent group, nor to one whose environment lacks a value its passthrough uses (422).',
      params: IdParams,
      body: { kind: 'json', schema: ModifyApiSchema },
      responses: [{ status: 200, description: 'The changed API.', schema: ApiSchema }],
      problems: [404, 409, 422],
      async handler({ params, body, audit }) {
        annotateApi(audit, catalog.data, catalog.get(params.id));
        const changed = await catalog.modify(params.id, body);
        annotateApi(audit, catalog.data, changed);
        return { body: toApiDto(catalog.data, changed) };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: `${BASE}/:id`,
      activity: 'Apis.Delete',
      tag: TAG,
      operationId: 'deleteApi',
      summary: 'Delete an API definition',
      description: 'Deletes its Passthrough configuration and its stored document too.',
      params: IdParams,
      responses: [{ status: 204, description: 'Deleted.' }],
      problems: [404],
      async handler({ params, audit }) {
        const api = catalog.get(params.id);
        annotateApi(audit, catalog.data, api);
        const removed = await catalog.delete(params.id);
        if (removed.passthroughId) {
          audit.resources.push({
            type: 'Passthrough',
            id: removed.passthroughId,
            name: apiResource(api).name,
          });
        }
        return { status: 204 };
      },
    }),
  ];
}
