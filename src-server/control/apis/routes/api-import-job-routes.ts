import { stringParam } from '../../../core/http/query-params.js';
import type { Principal } from '../../../core/http/principal.js';
import { defineRoute, type AnyRoute } from '../../http/route.js';
import { toApiDto } from '../api-dto.js';
import type { ApiCatalogService } from '../api-catalog-service.js';
import type { ApiImportService } from '../api-import-service.js';
import type { ApiImportJobs, ImportJobView } from '../import-jobs.js';
import {
  ApplyImportSchema,
  ImportJobSchema,
  JobParams,
  UrlImportSchema,
} from '../../../core/contracts/api-import-schemas.js';
import {
  API_DOCUMENT_BODY,
  ImportResultSchema,
  ReimportResultSchema,
} from '../../../core/contracts/api-schemas.js';
import { annotateApi, mediaTypeOf } from './api-audit.js';
import type { RawBody } from '../../http/read-raw-body.js';

const TAG = 'Apis';
const BASE = '/api/v1/api-imports';

const ownerOf = (principal: Principal | undefined) =>
  `${principal?.issuer ?? ''} ${principal?.subject ?? ''}`;

/**
 * Imports in steps, as the console runs them: start (an upload or a URL; read and validated in a worker
 * thread), follow its progress, look at warnings and, for a re-import, the changes, then apply or cancel.
 */
export function apiImportJobRoutes(
  catalog: ApiCatalogService,
  importer: ApiImportService,
  jobs: ApiImportJobs,
): AnyRoute[] {
  const view = (job: ImportJobView, apiId?: string) => jobView(job, catalog, importer, apiId);
  return [
    defineRoute({
      method: 'POST',
      path: BASE,
      activity: 'Apis.Import',
      audited: false,
      tag: TAG,
      operationId: 'startApiImport',
      summary: 'Start reading an uploaded description (nothing changes until it is applied)',
      query: {
        fileName: stringParam({ description: 'The file name, for naming an untitled API.', maxLength: 260 }),
      },
      body: API_DOCUMENT_BODY,
      responses: [{ status: 202, description: 'Started; follow it with GET.', schema: ImportJobSchema }],
      problems: [413, 415, 429],
      handler({ req, query, body, principal }) {
        const mediaType = mediaTypeOf(req.headers['content-type']);
        const job = jobs.start(ownerOf(principal), {
          kind: 'bytes',
          content: (body as RawBody).chunks,
          ...(mediaType ? { mediaType } : {}),
          ...(query.fileName ? { fileName: query.fileName } : {}),
        });
        return { status: 202, body: view(job), headers: { Location: `${BASE}/${job.id}` } };
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${BASE}/from-url`,
      activity: 'Apis.Import',
      audited: false,
      tag: TAG,
      operationId: 'startApiImportFromUrl',
      summary: 'Start loading and reading a description from a URL (nothing changes until it is applied)',
      description:
        'Files its $refs name are loaded relative to it. Size (25 MiB over all files) and time (30 s per file) are limited; a host that resolves to a loopback or private address needs allowPrivateAddress.',
      body: { kind: 'json', schema: UrlImportSchema },
      responses: [{ status: 202, description: 'Started; follow it with GET.', schema: ImportJobSchema }],
      problems: [429],
      handler({ body, principal }) {
        const job = jobs.start(ownerOf(principal), {
          kind: 'url',
          url: body.url,
          allowPrivateAddress: body.allowPrivateAddress === true,
        });
        return { status: 202, body: view(job), headers: { Location: `${BASE}/${job.id}` } };
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${BASE}/:jobId`,
      activity: 'Apis.Import',
      audited: false,
      tag: TAG,
      operationId: 'getApiImport',
      summary:
        'Follow an import: progress, then what was read (warnings, skipped operations) or why it failed',
      params: JobParams,
      query: {
        apiId: stringParam({
          description:
            'Also summarise what re-importing into this API would change (default: the API imported from the same URL, if any).',
          maxLength: 100,
        }),
      },
      responses: [{ status: 200, description: 'The import.', schema: ImportJobSchema }],
      problems: [404],
      handler({ params, query, principal }) {
        return { body: view(jobs.get(ownerOf(principal), params.jobId), query.apiId) };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: `${BASE}/:jobId`,
      activity: 'Apis.Import',
      audited: false,
      tag: TAG,
      operationId: 'cancelApiImport',
      summary: 'Cancel an import in progress, or drop one not applied',
      params: JobParams,
      responses: [{ status: 204, description: 'Cancelled.' }],
      problems: [404],
      handler({ params, principal }) {
        jobs.cancel(ownerOf(principal), params.jobId);
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${BASE}/:jobId/apply`,
      activity: 'Apis.Import',
      tag: TAG,
      operationId: 'applyApiImport',
      summary: 'Apply a read description: a new API, or a new revision of apiId',
      params: JobParams,
      body: { kind: 'json', schema: ApplyImportSchema },
      responses: [
        { status: 201, description: 'Imported as a new API.', schema: ImportResultSchema },
        { status: 200, description: 'Re-imported.', schema: ReimportResultSchema },
      ],
      problems: [404, 409],
      async handler({ params, body, principal, audit }) {
        const owner = ownerOf(principal);
        if (body.apiId !== undefined) {
          const apiId = body.apiId;
          annotateApi(audit, catalog.data, catalog.get(apiId));
          const outcome = await jobs.apply(owner, params.jobId, (prepared) =>
            importer.reimport(apiId, prepared, {
              ...(body.name ? { name: body.name } : {}),
              ...(body.expectedRevision !== undefined ? { expectedRevision: body.expectedRevision } : {}),
            }),
          );
          annotateApi(audit, catalog.data, outcome.api);
          audit.extraParameters = {
            revision: outcome.api.revision,
            source: outcome.api.source?.url ?? outcome.api.source?.name,
            added: outcome.added.length,
            removed: outcome.removed.length,
            droppedPassthroughEntries: outcome.droppedPassthroughEntries.map((dropped) => dropped.operation),
          };
          return { body: { ...outcome, api: toApiDto(catalog.data, outcome.api) } };
        }
        const outcome = await jobs.apply(owner, params.jobId, (prepared) =>
          importer.create(prepared, {
            ...(body.agentGroupId ? { agentGroupId: body.agentGroupId } : {}),
            ...(body.name ? { name: body.name } : {}),
          }),
        );
        const { api } = outcome;
        annotateApi(audit, catalog.data, api);
        audit.extraParameters = {
          id: api.id,
          name: api.name,
          basePath: api.basePath,
          operationCount: api.operations.length,
          source: api.source?.url ?? api.source?.name,
        };
        return {
          status: 201,
          body: { ...outcome, api: toApiDto(catalog.data, api) },
          headers: { Location: `/api/v1/apis/${api.id}` },
        };
      },
    }),
  ];
}

function jobView(job: ImportJobView, catalog: ApiCatalogService, importer: ApiImportService, apiId?: string) {
  const { prepared } = job;
  const existing =
    apiId !== undefined
      ? catalog.get(apiId)
      : job.source.kind === 'url' && job.source.url
        ? importer.findBySourceUrl(job.source.url)
        : undefined;
  return {
    id: job.id,
    state: job.state,
    progress: job.progress,
    source: job.source,
    startedAt: job.startedAt,
    ...(prepared
      ? {
          result: {
            title: prepared.definition.title,
            version: prepared.definition.version,
            specVersion: prepared.definition.specVersion,
            basePath: prepared.definition.basePath,
            ...(prepared.definition.serverUrl !== undefined
              ? { serverUrl: prepared.definition.serverUrl }
              : {}),
            operationCount: prepared.operations.length,
            warnings: prepared.definition.warnings,
            skipped: prepared.definition.skipped,
            bundledFiles: prepared.bundledFiles,
            documentBytes: prepared.documentBytes,
          },
        }
      : {}),
    ...(existing
      ? { existingApi: { id: existing.id, name: existing.name, revision: existing.revision } }
      : {}),
    ...(existing && prepared ? { changes: importer.previewReimport(existing.id, prepared) } : {}),
    ...(job.problem
      ? {
          problem: {
            ...job.problem.extensions,
            status: job.problem.status,
            code: job.problem.code,
            ...(job.problem.detail ? { detail: job.problem.detail } : {}),
            ...(job.problem.errors ? { errors: job.problem.errors } : {}),
          },
        }
      : {}),
  };
}
