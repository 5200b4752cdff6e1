import { defineRoute, type AnyRoute } from '../../http/route.js';
import { IdParams } from '../../../core/contracts/common-schemas.js';
import type { ApiRecord, ApiRevisionRecord } from '../../../core/model/config-model.js';
import { toApiDto } from '../api-dto.js';
import type { ApiCatalogService } from '../api-catalog-service.js';
import type { ApiRevisionService } from '../api-revision-service.js';
import {
  ChangeSummarySchema,
  RestoreResultSchema,
  RestoreRevisionSchema,
  RevisionDetailsSchema,
  RevisionListSchema,
  RevisionParams,
} from '../../../core/contracts/api-import-schemas.js';
import { annotateApi } from './api-audit.js';

const TAG = 'Apis';
const BASE = '/api/v1/apis/:id/revisions';

export function apiRevisionRoutes(catalog: ApiCatalogService, revisions: ApiRevisionService): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: BASE,
      activity: 'Apis.View',
      tag: TAG,
      operationId: 'listApiRevisions',
      summary: "An API's revisions, newest first (every import, re-import and restore; the last 20 are kept)",
      params: IdParams,
      responses: [{ status: 200, description: 'The revisions.', schema: RevisionListSchema }],
      problems: [404],
      handler({ params }) {
        const { api, revisions: list } = revisions.list(params.id);
        return { body: { data: list.map((revision) => revisionView(api, revision)) } };
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${BASE}/:revision`,
      activity: 'Apis.View',
      tag: TAG,
      operationId: 'getApiRevision',
      summary: 'One revision with the warnings about its document and the operations it skipped',
      params: RevisionParams,
      responses: [{ status: 200, description: 'The revision.', schema: RevisionDetailsSchema }],
      problems: [404],
      async handler({ params }) {
        const { api, revision, details } = await revisions.get(params.id, params.revision);
        return {
          body: {
            ...revisionView(api, revision),
            warnings: details.warnings,
            skipped: details.skipped,
            bundledFiles: details.bundledFiles,
          },
        };
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${BASE}/:revision/restore-preview`,
      activity: 'Apis.View',
      tag: TAG,
      operationId: 'previewApiRevisionRestore',
      summary: 'What restoring a revision would change',
      params: RevisionParams,
      responses: [{ status: 200, description: 'The changes.', schema: ChangeSummarySchema }],
      problems: [404, 409],
      async handler({ params }) {
        return { body: await revisions.previewRestore(params.id, params.revision) };
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${BASE}/:revision/restore`,
      activity: 'Apis.Restore',
      tag: TAG,
      operationId: 'restoreApiRevision',
      summary: 'Restore an earlier revision with its passthrough configuration, as a new revision',
      params: RevisionParams,
      body: { kind: 'json', schema: RestoreRevisionSchema.optional(), required: false },
      responses: [
        {
          status: 200,
          description: 'Restored.',
          schema: RestoreResultSchema,
        },
      ],
      problems: [404, 409],
      async handler({ params, body, audit }) {
        annotateApi(audit, catalog.data, catalog.get(params.id));
        const outcome = await revisions.restore(params.id, params.revision, {
          ...(body?.expectedRevision !== undefined ? { expectedRevision: body.expectedRevision } : {}),
        });
        annotateApi(audit, catalog.data, outcome.api);
        audit.extraParameters = {
          restoredRevision: params.revision,
          revision: outcome.api.revision,
          passthrough: outcome.passthrough,
          droppedPassthroughEntries: outcome.droppedPassthroughEntries.map((dropped) => dropped.operation),
        };
        return { body: { ...outcome, api: toApiDto(catalog.data, outcome.api) } };
      },
    }),
  ];
}

function revisionView(api: ApiRecord, revision: ApiRevisionRecord) {
  const current = revision.revision === api.revision;
  return {
    revision: revision.revision,
    current,
    importedAt: revision.importedAt,
    source: revision.source,
    version: revision.version,
    specVersion: revision.specVersion,
    basePath: revision.basePath,
    operationCount: revision.operationCount,
    warningCount: revision.warningCount,
    skippedCount: revision.skippedCount,
    ...(revision.restoredFrom !== undefined ? { restoredFrom: revision.restoredFrom } : {}),
    hasPassthrough: revision.passthroughFile !== undefined,
    restorable: !current && revision.detailsFile !== undefined,
  };
}
