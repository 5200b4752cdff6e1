import type { Database } from '../../storage/database.js';
import { checkpointText, type ChainSigner } from './chain-signer.js';

/**
 * Signs a checkpoint for every tenant whose chain grew since its last one: the place and link of its head. Run at
 * a regular interval by the instance holding the background jobs, and when a store closes (an offline import
 * leaves one). Returns how many were written.
 */
export async function writeCheckpoints(
  database: Database,
  signer: ChainSigner,
  now: () => number,
): Promise<number> {
  const { db } = database;
  const heads = await db
    .selectFrom('audit_chain_heads')
    .select(['tenant', 'seq', 'hash'])
    .where('seq', '>', 0)
    .execute();
  const latest = await db
    .selectFrom('audit_chain_checkpoints')
    .select(['tenant', (eb) => eb.fn.max('seq').as('seq')])
    .groupBy('tenant')
    .execute();
  const signedUpTo = new Map(latest.map((row) => [row.tenant, row.seq]));
  let written = 0;
  for (const head of heads) {
    if ((signedUpTo.get(head.tenant) ?? 0) >= head.seq) continue;
    const signedAt = now();
    const statement = { tenant: head.tenant, seq: head.seq, hash: head.hash, signedAt };
    await db
      .insertInto('audit_chain_checkpoints')
      .values({
        tenant: head.tenant,
        seq: head.seq,
        hash: head.hash,
        signed_at: signedAt,
        public_key: signer.publicKey,
        signature: signer.sign(checkpointText(statement)),
      })
      .onConflict((conflict) => conflict.columns(['tenant', 'seq']).doNothing())
      .execute();
    written++;
  }
  return written;
}
