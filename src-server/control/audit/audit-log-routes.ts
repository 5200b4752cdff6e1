import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { auditLogPage, type AuditPaging } from './paging/audit-paging.js';
import { RESPONSE_WRITTEN, defineRoute, type AnyRoute } from '../http/route.js';
import { enumParam, type QuerySpecOf } from '../../core/http/query-params.js';
import { AUDIT_FILTER_QUERY, AUDIT_LIST_QUERY, tenantParam, toAuditFilter } from './audit-query-spec.js';
import {
  AUDIT_EXPORT_FORMATS,
  AuditFacetsSchema,
  AuditLogPageSchema,
  AuditTenantListSchema,
} from '../../core/contracts/audit-schemas.js';
import type { AuditLogExportParameters } from '../../core/contracts/query-parameters.js';
import { formatAuditExport } from './audit-export-format.js';
import { chainedExport, isWholeTenant } from '../../core/audit/chain/chain-export.js';
import type { ChainSigner } from '../../core/audit/chain/chain-signer.js';
import { OWN_TENANT } from '../../core/audit/audit-tenant.js';
import type { Database } from '../../core/storage/database.js';

/** Where a whole tenant's NDJSON export reads its chain from (docs/AUDIT-CHAIN.md). */
export interface ChainedExportSource {
  database: Database;
  /** Signs the export's head. */
  signer: ChainSigner;
}
import { auditTimelineRoute } from './audit-timeline-route.js';

export const AUDIT_LOG_TAG = 'AuditLog';

const EXPORT_QUERY = {
  format: enumParam({
    description: 'ndjson (one entry per line, the default) or csv.',
    values: AUDIT_EXPORT_FORMATS,
  }),
  ...AUDIT_FILTER_QUERY,
} satisfies QuerySpecOf<AuditLogExportParameters>;

const FACETS_QUERY = { tenant: tenantParam } satisfies QuerySpecOf<{ tenant?: string }>;

/**
 * `GET /api/v1/audit-log`: mounted only when `Flags:EnableServiceApiAuditLogRoute` was on at the Control Panel's
 * start, so with the flag off the path answers exactly like an unknown route.
 */
export function auditLogRoutes(paging: AuditPaging, chain?: ChainedExportSource): AnyRoute[] {
  const { store } = paging;
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/audit-log',
      activity: 'AuditLog.View',
      tag: AUDIT_LOG_TAG,
      operationId: 'listAuditLogEntries',
      summary: 'List audit log entries',
      description:
        "Read-only, paged and filtered; Gatehouse's own trail unless `tenant` names another tenant (or `*` for all). Ordered by timestamp descending, then id descending. `actionName` and `userName` match exactly, case-insensitively; `startDateTimeUtc` is inclusive and `endDateTimeUtc` exclusive; a date-time without an offset is UTC. A page past the end is empty with the true `totalCount`. Parameter names are case-insensitive. To walk every page while entries keep arriving, follow `continuationToken` instead of counting up `PageNumber`: each entry is then seen once and none is skipped.",
      query: AUDIT_LIST_QUERY,
      responses: [{ status: 200, description: 'One page of entries.', schema: AuditLogPageSchema }],
      async handler({ query }) {
        return { body: await auditLogPage(paging, query) };
      },
    }),
    auditTimelineRoute(store),
    defineRoute({
      method: 'GET',
      path: '/api/v1/audit-log/facets',
      activity: 'AuditLog.View',
      tag: AUDIT_LOG_TAG,
      operationId: 'listAuditLogFacets',
      summary: 'Distinct action and user names present in the trail',
      description:
        "For filter suggestions: includes action names of imported platform entries that are not in the activity catalog. Of Gatehouse's own trail unless `tenant` names another (or `*`).",
      query: FACETS_QUERY,
      responses: [{ status: 200, description: 'Sorted names.', schema: AuditFacetsSchema }],
      async handler({ query }) {
        return { body: await store.facets(query.tenant) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/audit-log/tenants',
      activity: 'AuditLog.View',
      tag: AUDIT_LOG_TAG,
      operationId: 'listAuditLogTenants',
      summary: 'The tenants whose trails this data dir holds',
      description:
        "Gatehouse's own trail (`gatehouse`) and every imported or synced tenant's, with how many entries each holds and the newest entry's time.",
      responses: [{ status: 200, description: 'Tenants by name.', schema: AuditTenantListSchema }],
      async handler() {
        return { body: { items: await store.tenants() } };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/audit-log/export',
      activity: 'AuditLog.View',
      tag: AUDIT_LOG_TAG,
      operationId: 'exportAuditLogEntries',
      summary: 'Export the entries matching a filter',
      description:
        "Streams every matching entry (same filters and order as the list) as NDJSON or CSV. An NDJSON export of one tenant without other filters carries the tamper evidence: each entry's `chain` link, then the removal records, the signed checkpoints and the public key (docs/AUDIT-CHAIN.md), for `gatehouse audit verify --file`.",
      query: EXPORT_QUERY,
      responses: [
        { status: 200, description: 'NDJSON export.', contentType: 'application/x-ndjson' },
        { status: 200, description: 'CSV export.', contentType: 'text/csv' },
      ],
      async handler({ query, res, req }): Promise<typeof RESPONSE_WRITTEN> {
        const format = query.format ?? 'ndjson';
        const filter = toAuditFilter(query);
        const stamp = new Date().toISOString().replace(/[:.]/g, '-');
        res.status(200);
        res.setHeader(
          'Content-Type',
          format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
        );
        res.setHeader(
          'Content-Disposition',
          `attachment; filename="audit-log-${stamp}.${format === 'csv' ? 'csv' : 'ndjson'}"`,
        );
        res.setHeader('Cache-Control', 'no-store');
        if (req.method === 'HEAD') {
          res.end();
          return RESPONSE_WRITTEN;
        }
        const lines =
          chain && format === 'ndjson' && isWholeTenant(filter)
            ? chainedExport(chain.database, filter.tenant ?? OWN_TENANT, chain.signer)
            : formatAuditExport(store.iterate(filter), format);
        await pipeline(Readable.from(lines), res);
        return RESPONSE_WRITTEN;
      },
    }),
  ];
}
