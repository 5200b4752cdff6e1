import type { Tx } from '../../storage/database.js';
import type { AuditChainRemovalTable } from '../../storage/schema.js';
import { CHAIN_START } from './chain-hash.js';
import { removalText, type ChainSigner } from './chain-signer.js';

/** Why entries left the trail: what a removal record names. */
export type RemovalPolicy = 'retention' | 'resource-history';

export interface RemovedLink {
  tenant: string;
  chain_seq: number | null;
  chain_hash: string | null;
}

const LOOKUP_KEYS = 1_000;

/**
 * Records, in the transaction that removes them, the runs of consecutive chain places the removed entries held:
 * per run its range, count, the link before it, its last link and the policy, signed, so a verifier bridges the
 * gap and tells a removal by policy from a deletion. Without a signer (a store opened without the data dir's keys)
 * the record is kept unsigned and verifies as a deletion.
 */
export async function recordRemovals(
  trx: Tx,
  removed: readonly RemovedLink[],
  policy: RemovalPolicy,
  removedAt: number,
  signer: ChainSigner | undefined,
): Promise<void> {
  const byTenant = new Map<string, { seq: number; hash: string }[]>();
  for (const row of removed) {
    if (row.chain_seq === null || row.chain_hash === null) continue;
    let links = byTenant.get(row.tenant);
    if (!links) byTenant.set(row.tenant, (links = []));
    links.push({ seq: row.chain_seq, hash: row.chain_hash });
  }
  const records: AuditChainRemovalTable[] = [];
  for (const [tenant, links] of byTenant) {
    links.sort((a, b) => a.seq - b.seq);
    const runs: { from: number; to: number; last: string; count: number }[] = [];
    for (const link of links) {
      const run = runs.at(-1);
      if (run && run.to + 1 === link.seq) {
        run.to = link.seq;
        run.last = link.hash;
        run.count++;
      } else runs.push({ from: link.seq, to: link.seq, last: link.hash, count: 1 });
    }
    const before = await linksBefore(
      trx,
      tenant,
      runs.map((run) => run.from - 1),
    );
    for (const run of runs) {
      const statement = {
        tenant,
        fromSeq: run.from,
        toSeq: run.to,
        count: run.count,
        prevHash: run.from === 1 ? CHAIN_START : (before.get(run.from - 1) ?? ''),
        lastHash: run.last,
        policy,
        removedAt,
      };
      records.push({
        tenant,
        from_seq: run.from,
        to_seq: run.to,
        count: run.count,
        prev_hash: statement.prevHash,
        last_hash: run.last,
        policy,
        removed_at: removedAt,
        public_key: signer?.publicKey ?? '',
        signature: signer?.sign(removalText(statement)) ?? '',
      });
    }
  }
  for (let start = 0; start < records.length; start += 500) {
    await trx
      .insertInto('audit_chain_removals')
      .values(records.slice(start, start + 500))
      .execute();
  }
}

/** The links at these places: a live entry's, or the last link of a removal recorded earlier. */
async function linksBefore(trx: Tx, tenant: string, seqs: number[]): Promise<Map<number, string>> {
  const found = new Map<number, string>();
  const wanted = seqs.filter((seq) => seq > 0);
  for (let start = 0; start < wanted.length; start += LOOKUP_KEYS) {
    const slice = wanted.slice(start, start + LOOKUP_KEYS);
    const live = await trx
      .selectFrom('audit_entries')
      .select(['chain_seq', 'chain_hash'])
      .where('tenant', '=', tenant)
      .where('chain_seq', 'in', slice)
      .execute();
    for (const row of live)
      if (row.chain_seq !== null && row.chain_hash) found.set(row.chain_seq, row.chain_hash);
    const recorded = await trx
      .selectFrom('audit_chain_removals')
      .select(['to_seq', 'last_hash'])
      .where('tenant', '=', tenant)
      .where('to_seq', 'in', slice)
      .execute();
    for (const row of recorded) found.set(row.to_seq, row.last_hash);
  }
  return found;
}
