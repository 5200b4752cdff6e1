import type { Database } from '../../storage/database.js';
import { OWN_TENANT } from '../audit-tenant.js';
import { afterInNewestFirst } from '../newest-first.js';
import { CHAIN_START } from './chain-hash.js';
import { exportHeadText, type ChainSigner } from './chain-signer.js';

/**
 * The lines an export adds after its entries so it can be verified elsewhere (docs/AUDIT-CHAIN.md): each a JSON
 * object with exactly one of these keys. Importers skip them.
 */
export const CHAIN_LINE_KEYS = ['auditChain', 'auditChainCheckpoint', 'auditChainRemoval'] as const;

/** Whether a parsed line is one of the chain's evidence lines (not an entry). */
export function isChainEvidenceLine(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && (CHAIN_LINE_KEYS as readonly string[]).includes(keys[0]!);
}

/** Whether an export with this filter is a whole tenant's trail (only then it carries the chain). */
export function isWholeTenant(filter: { tenant?: string }): boolean {
  return (
    filter.tenant !== '*' &&
    Object.entries(filter as Record<string, unknown>).every(
      ([key, value]) => key === 'tenant' || value === undefined,
    )
  );
}

const BATCH = 1_000;

/**
 * A tenant's whole trail as verifiable NDJSON: its entries in list order (timestamp, then id, descending), each
 * with `chain: {seq, hash}`, then its removal records, its checkpoints and a last `auditChain` line naming the
 * tenant, the public key and the chain's head, signed. The head is read first and the export holds the chain up
 * to it only, so entries recorded while it runs neither break it nor go unsigned.
 */
export async function* chainedExport(
  database: Database,
  tenant: string,
  signer: ChainSigner,
  now: () => number = Date.now,
): AsyncGenerator<string> {
  const { db } = database;
  const head = await db
    .selectFrom('audit_chain_heads')
    .select(['seq', 'hash'])
    .where('tenant', '=', tenant)
    .executeTakeFirst();
  const headSeq = head?.seq ?? 0;
  const headHash = head?.hash ?? CHAIN_START;
  let after: { timeMs: number; id: number } | undefined;
  const tenantField = tenant === OWN_TENANT ? '' : `,"tenant":${JSON.stringify(tenant)}`;
  for (;;) {
    const cursor = after;
    const rows = await db
      .selectFrom('audit_entries')
      .select(['id', 'time_ms', 'entry', 'chain_seq', 'chain_hash'])
      .where('tenant', '=', tenant)
      // An entry without a place stays in: the verifier reports it.
      .where((eb) => eb.or([eb('chain_seq', '<=', headSeq), eb('chain_seq', 'is', null)]))
      .$if(cursor !== undefined, (q) => q.where(afterInNewestFirst(cursor!)))
      .orderBy('time_ms', 'desc')
      .orderBy('id', 'desc')
      .limit(BATCH)
      .execute();
    let chunk = '';
    for (const row of rows) {
      const chain =
        row.chain_seq === null
          ? ''
          : `,"chain":{"seq":${row.chain_seq},"hash":${JSON.stringify(row.chain_hash)}}`;
      const body = row.entry.length > 2 ? `,${row.entry.slice(1, -1)}` : '';
      chunk += `{"id":${row.id}${body}${tenantField}${chain}}\n`;
    }
    if (chunk) yield chunk;
    if (rows.length < BATCH) break;
    const last = rows.at(-1)!;
    after = { timeMs: last.time_ms, id: last.id };
  }
  const removals = await db
    .selectFrom('audit_chain_removals')
    .selectAll()
    .where('tenant', '=', tenant)
    .where('to_seq', '<=', headSeq)
    .orderBy('from_seq')
    .execute();
  let evidence = '';
  for (const r of removals) {
    evidence += `${JSON.stringify({
      auditChainRemoval: {
        fromSeq: r.from_seq,
        toSeq: r.to_seq,
        count: r.count,
        prevHash: r.prev_hash,
        lastHash: r.last_hash,
        policy: r.policy,
        removedAt: new Date(r.removed_at).toISOString(),
        publicKey: r.public_key,
        signature: r.signature,
      },
    })}\n`;
  }
  const checkpoints = await db
    .selectFrom('audit_chain_checkpoints')
    .selectAll()
    .where('tenant', '=', tenant)
    .where('seq', '<=', headSeq)
    .orderBy('seq')
    .execute();
  for (const c of checkpoints) {
    evidence += `${JSON.stringify({
      auditChainCheckpoint: {
        seq: c.seq,
        hash: c.hash,
        signedAt: new Date(c.signed_at).toISOString(),
        publicKey: c.public_key,
        signature: c.signature,
      },
    })}\n`;
  }
  const signedAt = now();
  const signature = signer.sign(exportHeadText({ tenant, headSeq, headHash, signedAt }));
  evidence += `${JSON.stringify({
    auditChain: {
      version: 2,
      tenant,
      publicKey: signer.publicKey,
      headSeq,
      headHash,
      signedAt: new Date(signedAt).toISOString(),
      signature,
    },
  })}\n`;
  yield evidence;
}
