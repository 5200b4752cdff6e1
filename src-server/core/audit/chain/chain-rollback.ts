import type { Database } from '../../storage/database.js';
import { CHAIN_START } from './chain-hash.js';

/**
 * Takes the chains back with the trail (a restore to `atMs`): removal records and checkpoints made after it go,
 * and each head returns to the last place still held by an entry or a removal record.
 */
export async function rollBackChains(database: Database, atMs: number): Promise<void> {
  await database.transaction(async (trx) => {
    await trx.deleteFrom('audit_chain_removals').where('removed_at', '>', atMs).execute();
    await trx.deleteFrom('audit_chain_checkpoints').where('signed_at', '>', atMs).execute();
    const heads = await trx.selectFrom('audit_chain_heads').select(['tenant', 'seq']).execute();
    for (const head of heads) {
      const live = await trx
        .selectFrom('audit_entries')
        .select(['chain_seq as seq', 'chain_hash as hash'])
        .where('tenant', '=', head.tenant)
        .where('chain_seq', 'is not', null)
        .orderBy('chain_seq', 'desc')
        .limit(1)
        .executeTakeFirst();
      const removed = await trx
        .selectFrom('audit_chain_removals')
        .select(['to_seq as seq', 'last_hash as hash'])
        .where('tenant', '=', head.tenant)
        .orderBy('to_seq', 'desc')
        .limit(1)
        .executeTakeFirst();
      const last = [live, removed]
        .filter((link) => link !== undefined && link.seq !== null)
        .sort((a, b) => Number(b!.seq) - Number(a!.seq))[0];
      if (last && Number(last.seq) >= head.seq) continue;
      await trx
        .updateTable('audit_chain_heads')
        .set({ seq: last ? Number(last.seq) : 0, hash: last?.hash ?? CHAIN_START })
        .where('tenant', '=', head.tenant)
        .execute();
    }
  });
}
