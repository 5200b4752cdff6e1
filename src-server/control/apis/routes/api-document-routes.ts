import { defineRoute, RESPONSE_WRITTEN, type AnyRoute } from '../../http/route.js';
import { stringParam } from '../../../core/http/query-params.js';
import { IdParams } from '../../../core/contracts/common-schemas.js';
import { toApiDto } from '../api-dto.js';
import type { ApiCatalogService } from '../api-catalog-service.js';
import type { ApiImportService } from '../api-import-service.js';
import {
  API_DOCUMENT_LIMIT,
  API_DOCUMENT_MEDIA_TYPES,
  ReimportResultSchema,
} from '../../../core/contracts/api-schemas.js';
import { annotateApi, mediaTypeOf } from './api-audit.js';
import type { RawBody } from '../../http/read-raw-body.js';

const TAG = 'Apis';
const PATH = '/api/v1/apis/:id/document';

function downloadName(apiName: string, mediaType: string): string {
  const stem = apiName.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'api';
  return `${stem}.${mediaType.includes('json') ? 'json' : 'yaml'}`;
}

export function apiDocumentRoutes(catalog: ApiCatalogService, importer: ApiImportService): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: PATH,
      activity: 'Apis.View',
      tag: TAG,
      operationId: 'getApiDocument',
      summary: "Download an API's OpenAPI document as imported",
      params: IdParams,
      responses: [
        {
          status: 200,
          description: 'The document as imported, with the media type it was imported with.',
          contentType: API_DOCUMENT_MEDIA_TYPES,
        },
      ],
      problems: [404],
      async handler({ req, res, params }): Promise<typeof RESPONSE_WRITTEN> {
        const { content, mediaType, api } = await catalog.readDocument(params.id);
        res.status(200);
        res.setHeader(
          'Content-Type',
          mediaType.startsWith('text/') ? `${mediaType}; charset=utf-8` : mediaType,
        );
        res.setHeader('Content-Length', String(content.length));
        res.setHeader('Cache-Control', 'no-store');
        res.setHeader('Content-Disposition', `inline; filename="${downloadName(api.name, mediaType)}"`);
        res.end(req.method === 'HEAD' ? undefined : content);
        return RESPONSE_WRITTEN;
      },
    }),
    defineRoute({
      method: 'PUT',
      path: PATH,
      activity: 'Apis.Import',
      tag: TAG,
      operationId: 'reimportApi',
      summary: 'Re-import a new version of an API definition',
      description:
        'Replaces the document and the operations, keeps the agent groups, and bumps the revision. Passthrough entries of operations that are still there are kept (also when a path parameter was renamed); the others are dropped and listed.',
      params: IdParams,
      query: {
        name: stringParam({ description: 'A new name for the API (default: unchanged).', maxLength: 200 }),
      },
      body: {
        kind: 'raw',
        contentTypes: API_DOCUMENT_MEDIA_TYPES,
        limit: API_DOCUMENT_LIMIT,
        description: 'The new OpenAPI document.',
      },
      responses: [{ status: 200, description: 'Re-imported.', schema: ReimportResultSchema }],
      problems: [404, 409, 413, 415],
      async handler({ req, params, query, body, audit }) {
        const { chunks, byteLength: documentBytes } = body as RawBody;
        annotateApi(audit, catalog.data, catalog.get(params.id));
        const outcome = await importer.reimportDocument(
          params.id,
          { content: chunks, mediaType: mediaTypeOf(req.headers['content-type']) },
          { name: query.name?.trim() || undefined },
        );
        annotateApi(audit, catalog.data, outcome.api);
        const passthrough = catalog.data.passthroughs.find((candidate) => candidate.apiId === params.id);
        if (passthrough)
          audit.resources.push({ type: 'Passthrough', id: passthrough.id, name: outcome.api.name });
        audit.extraParameters = {
          revision: outcome.api.revision,
          basePath: outcome.api.basePath,
          added: outcome.added.length,
          removed: outcome.removed.length,
          droppedPassthroughEntries: outcome.droppedPassthroughEntries.map((dropped) => dropped.operation),
          documentBytes,
        };
        return {
          body: {
            api: toApiDto(catalog.data, outcome.api),
            kept: outcome.kept,
            added: outcome.added,
            removed: outcome.removed,
            droppedPassthroughEntries: outcome.droppedPassthroughEntries,
            warnings: outcome.warnings,
            skipped: outcome.skipped,
          },
        };
      },
    }),
  ];
}
