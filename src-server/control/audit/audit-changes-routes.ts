import * as z from 'zod';
import type { AuditStore } from '../../core/audit/audit-entry.js';
import { diffParameters } from '../../core/contracts/parameter-diff.js';
import {
  AuditEntryChangesSchema,
  type AuditEntryChanges,
} from '../../core/contracts/audit-changes-schemas.js';
import { notFound } from '../../core/http/problem.js';
import type { QuerySpecOf } from '../../core/http/query-params.js';
import { defineRoute, type AnyRoute } from '../http/route.js';
import { AUDIT_LOG_TAG } from './audit-log-routes.js';
import { tenantParam } from './audit-query-spec.js';

const EntryIdParams = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,15}$/, 'An entry id is a positive integer.')
    .meta({ description: "The entry's `id`." }),
});

const CHANGES_QUERY = { tenant: tenantParam } satisfies QuerySpecOf<{ tenant?: string }>;

/** `GET /api/v1/audit-log/entries/{id}/changes`: what an entry changed, against the previous entry of its resource. */
export function auditChangesRoutes(store: AuditStore): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/audit-log/entries/:id/changes',
      activity: 'AuditLog.View',
      tag: AUDIT_LOG_TAG,
      operationId: 'getAuditLogEntryChanges',
      summary: 'What an entry changed: its parameters against the previous entry of the same resource',
      description:
        "The entry's first resource is compared; the previous entry is the one before it in list order, in the same tenant's trail, that names that resource. Of Gatehouse's own trail unless `tenant` names another (or `*`).",
      params: EntryIdParams,
      query: CHANGES_QUERY,
      responses: [{ status: 200, description: 'The changes.', schema: AuditEntryChangesSchema }],
      problems: [404],
      async handler({ params, query }) {
        const entry = await store.entry(Number(params.id), query.tenant);
        if (!entry) throw notFound(`No audit entry ${params.id} in that trail.`);
        const resource = entry.resources[0];
        const previous = resource ? await store.previousOfResource(entry, resource) : undefined;
        const body: AuditEntryChanges = {
          id: entry.id,
          changes: diffParameters(previous?.parameters ?? {}, entry.parameters),
        };
        if (resource) body.resource = resource;
        if (previous)
          body.previous = {
            id: previous.id,
            actionName: previous.actionName,
            userName: previous.userName,
            timestamp: previous.timestamp,
          };
        return { body };
      },
    }),
  ];
}
