import * as z from 'zod';
import { notFound } from '../../../core/http/problem.js';
import type { AuditSourceStore } from '../../../core/audit/sources/audit-source-store.js';
import {
  AuditSourceInputSchema,
  AuditSourceListSchema,
  AuditSourcePatchSchema,
  AuditSourceSchema,
} from '../../../core/contracts/audit-source-schemas.js';
import { defineRoute, type AnyRoute } from '../../http/route.js';
import type { SyncRuns } from './sync-runs.js';

const TAG = 'AuditSources';
const NameParams = z.object({ name: z.string().min(1).max(64) });

function resourceOf(name: string) {
  return { type: 'AuditSource', id: name, name };
}

/** The tenants the audit trail is synced from: managed by administrators; secrets only ever masked. */
export function auditSourceRoutes(sources: AuditSourceStore, runs: SyncRuns): AnyRoute[] {
  async function found(name: string) {
    const source = await sources.get(name.toLowerCase());
    if (!source) throw notFound(`No audit source is named ${name}.`);
    return source;
  }
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/audit-sources',
      activity: 'AuditSources.View',
      tag: TAG,
      operationId: 'listAuditSources',
      summary: 'List the tenants the audit trail is synced from',
      responses: [
        { status: 200, description: 'Sources by name, secrets masked.', schema: AuditSourceListSchema },
      ],
      async handler() {
        return { body: { items: await sources.list() } };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/audit-sources/:name',
      activity: 'AuditSources.View',
      tag: TAG,
      operationId: 'getAuditSource',
      summary: 'Read a source and the progress or summary of its sync',
      params: NameParams,
      responses: [{ status: 200, description: 'The source, secrets masked.', schema: AuditSourceSchema }],
      problems: [404],
      async handler({ params }) {
        return { body: await found(params.name) };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/audit-sources',
      activity: 'AuditSources.Create',
      tag: TAG,
      operationId: 'createAuditSource',
      summary: 'Add a tenant to sync the audit trail from',
      description:
        'A management API base URL and either OAuth 2 client credentials (token endpoint, client id, client secret, scope) or a pasted bearer token. The secret is sealed at rest and never returned.',
      body: { kind: 'json', schema: AuditSourceInputSchema },
      responses: [{ status: 201, description: 'Created.', schema: AuditSourceSchema }],
      problems: [409],
      async handler({ body, audit }) {
        const created = await sources.create(body);
        audit.resources.push(resourceOf(created.name));
        return {
          status: 201,
          body: created,
          headers: { Location: `/api/v1/audit-sources/${created.name}` },
        };
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/api/v1/audit-sources/:name',
      activity: 'AuditSources.Modify',
      tag: TAG,
      operationId: 'modifyAuditSource',
      summary: "Change a source's endpoint or credentials",
      description:
        'Leave the secret out to keep the stored one. Another base URL or tenant starts the next sync from the beginning.',
      params: NameParams,
      body: { kind: 'json', schema: AuditSourceInputSchema },
      responses: [{ status: 200, description: 'The changed source.', schema: AuditSourceSchema }],
      problems: [404],
      async handler({ params, body, audit }) {
        const changed = await sources.update(params.name.toLowerCase(), body);
        audit.resources.push(resourceOf(changed.name));
        return { body: changed };
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: '/api/v1/audit-sources/:name',
      activity: 'AuditSources.Modify',
      tag: TAG,
      operationId: 'patchAuditSource',
      summary: "Edit some of a source's fields",
      description:
        'Only the fields given change. The sealed secret is kept unless a new one is given (a new way of getting a token needs its secret). Another base URL or tenant starts the next sync from the beginning.',
      params: NameParams,
      body: { kind: 'json', schema: AuditSourcePatchSchema },
      responses: [{ status: 200, description: 'The changed source.', schema: AuditSourceSchema }],
      problems: [404],
      async handler({ params, body, audit }) {
        const changed = await sources.patch(params.name.toLowerCase(), body);
        audit.resources.push(resourceOf(changed.name));
        return { body: changed };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v1/audit-sources/:name',
      activity: 'AuditSources.Delete',
      tag: TAG,
      operationId: 'deleteAuditSource',
      summary: 'Remove a source',
      description: 'The entries already synced stay in their tenant’s trail.',
      params: NameParams,
      responses: [{ status: 204, description: 'Removed.' }],
      problems: [404],
      async handler({ params, audit }) {
        const removed = await sources.remove(params.name.toLowerCase());
        if (!removed) throw notFound(`No audit source is named ${params.name}.`);
        audit.resources.push(resourceOf(removed.name));
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/audit-sources/:name/sync',
      activity: 'AuditSources.Sync',
      tag: TAG,
      operationId: 'syncAuditSource',
      summary: "Pull the tenant's new audit entries",
      description:
        'Starts a sync in the background (or joins the one running) and answers at once; `GET /api/v1/audit-sources/{name}` shows its progress in `lastSync` and the summary when it ends.',
      params: NameParams,
      responses: [{ status: 202, description: 'Started or running.', schema: AuditSourceSchema }],
      problems: [404],
      async handler({ params, audit }) {
        const source = await found(params.name);
        audit.resources.push(resourceOf(source.name));
        runs.start(source.name);
        return { status: 202, body: (await sources.get(source.name)) ?? source };
      },
    }),
  ];
}
