import type { Database, Tx } from '../../storage/database.js';
import type { AuditEntryTable } from '../../storage/schema.js';
import { CHAIN_START, contentDigest, linkHash } from './chain-hash.js';

export interface ChainHead {
  seq: number;
  hash: string;
}

/**
 * Reads a tenant's chain head for writing: the row is created at the chain's start if absent and stays locked
 * (PostgreSQL: FOR UPDATE) until the transaction ends, so writers of several instances take turns per tenant.
 */
export async function lockHead(database: Database, trx: Tx, tenant: string): Promise<ChainHead> {
  await trx
    .insertInto('audit_chain_heads')
    .values({ tenant, seq: 0, hash: CHAIN_START })
    .onConflict((conflict) => conflict.column('tenant').doNothing())
    .execute();
  const head = await database
    .forUpdate(trx.selectFrom('audit_chain_heads').select(['seq', 'hash']).where('tenant', '=', tenant))
    .executeTakeFirstOrThrow();
  return { seq: head.seq, hash: head.hash };
}

export async function saveHead(trx: Tx, tenant: string, head: ChainHead): Promise<void> {
  await trx
    .updateTable('audit_chain_heads')
    .set({ seq: head.seq, hash: head.hash })
    .where('tenant', '=', tenant)
    .execute();
}

/**
 * Gives rows about to be inserted their places and link hashes, in the order given, per tenant: one head read
 * and one head write per tenant in the batch, the hashing in memory (no query per row).
 */
export async function chainRows(
  database: Database,
  trx: Tx,
  rows: Pick<AuditEntryTable, 'id' | 'tenant' | 'entry' | 'chain_seq' | 'chain_hash'>[],
): Promise<void> {
  if (rows.length === 0) return;
  const heads = new Map<string, ChainHead>();
  for (const row of rows) {
    let head = heads.get(row.tenant);
    if (!head) {
      head = await lockHead(database, trx, row.tenant);
      heads.set(row.tenant, head);
    }
    linkNext(head, row.id, contentDigest(row.entry));
    row.chain_seq = head.seq;
    row.chain_hash = head.hash;
  }
  for (const [tenant, head] of heads) await saveHead(trx, tenant, head);
}

/** Moves the head on by the entry `id` whose `contentDigest` is `digest`: the head is then that entry's link. */
export function linkNext(head: ChainHead, id: number, digest: string): void {
  head.seq += 1;
  head.hash = linkHash(head.hash, head.seq, id, digest);
}
