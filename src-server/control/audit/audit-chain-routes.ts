import type { ChainSigner } from '../../core/audit/chain/chain-signer.js';
import { verifyStoredChains } from '../../core/audit/chain/chain-verify-store.js';
import { AuditChainVerificationSchema } from '../../core/contracts/audit-chain-schemas.js';
import type { QuerySpecOf } from '../../core/http/query-params.js';
import type { Database } from '../../core/storage/database.js';
import { defineRoute, type AnyRoute } from '../http/route.js';
import { AUDIT_LOG_TAG } from './audit-log-routes.js';
import { tenantParam } from './audit-query-spec.js';

const VERIFY_QUERY = { tenant: tenantParam } satisfies QuerySpecOf<{ tenant?: string }>;

/** `GET /api/v1/audit-log/verification`: the tamper-evidence check the console's Verify button shows. */
export function auditChainRoutes(database: Database, signer: ChainSigner): AnyRoute[] {
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
  ];
}
