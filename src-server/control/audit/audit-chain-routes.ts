import type { ChainSigner } from '../../core/audit/chain/chain-signer.js';
import { verifyStoredChains } from '../../core/audit/chain/chain-verify-store.js';
import {
  AuditChainVerificationSchema,
  AuditVerificationRunSchema,
  VerificationRunParams,
} from '../../core/contracts/audit-chain-schemas.js';
import type { QuerySpecOf } from '../../core/http/query-params.js';
import type { Database } from '../../core/storage/database.js';
import { defineRoute, type AnyRoute } from '../http/route.js';
import { AUDIT_LOG_TAG } from './audit-log-routes.js';
import { tenantParam } from './audit-query-spec.js';
import type { VerificationRuns } from './verification-runs.js';

const VERIFY_QUERY = { tenant: tenantParam } satisfies QuerySpecOf<{ tenant?: string }>;

const RUNS = '/api/v1/audit-log/verification/runs';

/**
 * `GET /api/v1/audit-log/verification`: the tamper-evidence check, answered when done; and the same check as a
 * run followed by its progress (`/verification/runs`), which the console's Verify button shows.
 */
export function auditChainRoutes(
  database: Database,
  signer: ChainSigner,
  runs: VerificationRuns,
): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/audit-log/verification',
      activity: 'AuditLog.View',
      tag: AUDIT_LOG_TAG,
      operationId: 'verifyAuditLog',
      summary: "Verify the audit trail's hash chain",
      description:
        "Walks each tenant's hash chain (every tenant's unless `tenant` names one) and reports it intact or names the first broken link and what happened there: an entry edited, removed (without a signed retention record), inserted or reordered. Checkpoints and removal records must carry valid signatures of this database's key (`publicKey`). See docs/AUDIT-CHAIN.md.",
      query: VERIFY_QUERY,
      responses: [
        { status: 200, description: 'One verdict per tenant.', schema: AuditChainVerificationSchema },
      ],
      async handler({ query }) {
        const items = await verifyStoredChains(database, signer.publicKey, query.tenant);
        return {
          body: { intact: items.every((item) => item.intact), publicKey: signer.publicKey, items },
        };
      },
    }),
    defineRoute({
      method: 'POST',
      path: RUNS,
      activity: 'AuditLog.View',
      audited: false,
      tag: AUDIT_LOG_TAG,
      operationId: 'startAuditLogVerification',
      summary: "Start verifying the audit trail's hash chain, with progress",
      description:
        'The check of `GET /api/v1/audit-log/verification` in the background: answers at once with the run (its `progress.total`, the entries to walk over); `GET /api/v1/audit-log/verification/runs/{runId}` follows it (`progress.checked`) and carries the verdict in `result` when `state` is `done`. A start for a tenant whose run is still going joins that run. Finished runs are kept 10 minutes.',
      query: VERIFY_QUERY,
      responses: [{ status: 202, description: 'Started or running.', schema: AuditVerificationRunSchema }],
      async handler({ query }) {
        const run = await runs.start(query.tenant ?? '*');
        return { status: 202, body: run, headers: { Location: `${RUNS}/${run.id}` } };
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${RUNS}/:runId`,
      activity: 'AuditLog.View',
      audited: false,
      tag: AUDIT_LOG_TAG,
      operationId: 'getAuditLogVerification',
      summary: 'Follow a verification: entries checked of the total, then the verdict',
      params: VerificationRunParams,
      responses: [{ status: 200, description: 'The run.', schema: AuditVerificationRunSchema }],
      problems: [404],
      handler({ params }) {
        return { body: runs.get(params.runId) };
      },
    }),
  ];
}
