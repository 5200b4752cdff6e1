import * as z from 'zod';
import type { SavedFilterStore } from '../../../core/audit/saved-filters/saved-filter-store.js';
import {
  SavedFilterInputSchema,
  SavedFilterListSchema,
  SavedFilterSchema,
} from '../../../core/contracts/saved-filter-schemas.js';
import { defineRoute, type AnyRoute } from '../../http/route.js';

const TAG = 'AuditLog';
const IdParams = z.object({ id: z.string().min(1).max(64) });

function resourceOf(filter: { id: string; name: string }) {
  return { type: 'SavedAuditFilter', id: filter.id, name: filter.name };
}

/** The audit viewer's saved filters: each user lists, saves and deletes their own. */
export function savedFilterRoutes(filters: SavedFilterStore): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/audit-log/saved-filters',
      activity: 'AuditLog.View',
      tag: TAG,
      operationId: 'listSavedAuditFilters',
      summary: "List the caller's saved audit filters",
      responses: [{ status: 200, description: 'By name.', schema: SavedFilterListSchema }],
      async handler({ principal }) {
        return { body: { items: await filters.list(principal!.userName) } };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/audit-log/saved-filters',
      activity: 'SavedAuditFilters.Create',
      tag: TAG,
      operationId: 'createSavedAuditFilter',
      summary: 'Save a filter of the audit viewer under a name',
      description:
        "The filter is the list's query parameters; it is checked when applied, as any filter in a URL. Names are unique per user, case-insensitively (409 otherwise).",
      body: { kind: 'json', schema: SavedFilterInputSchema },
      responses: [{ status: 201, description: 'Saved.', schema: SavedFilterSchema }],
      problems: [409],
      async handler({ body, principal, audit }) {
        const saved = await filters.create(principal!.userName, body);
        audit.resources.push(resourceOf(saved));
        return {
          status: 201,
          body: saved,
          headers: { Location: `/api/v1/audit-log/saved-filters/${saved.id}` },
        };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v1/audit-log/saved-filters/:id',
      activity: 'SavedAuditFilters.Delete',
      tag: TAG,
      operationId: 'deleteSavedAuditFilter',
      summary: 'Delete one of your saved audit filters',
      params: IdParams,
      responses: [{ status: 204, description: 'Deleted.' }],
      problems: [404],
      async handler({ params, principal, audit }) {
        const removed = await filters.remove(principal!.userName, params.id);
        audit.resources.push(resourceOf(removed));
        return { status: 204 };
      },
    }),
  ];
}
