import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Database } from '../../storage/database.js';
import { OWN_TENANT } from '../audit-tenant.js';
import { backlogState } from './chain-backlog.js';
import { ChainWalker, type ChainLink, type ChainVerdict } from './chain-walker.js';

const BATCH = 5_000;

export interface VerifyProgress {
  tenant: string;
  checked: number;
  total: number;
}

/** The tenants that have a chain (their entries were chained), by name. */
export async function chainedTenants(database: Database): Promise<string[]> {
  const rows = await database.db.selectFrom('audit_chain_heads').select('tenant').orderBy('tenant').execute();
  return rows.map((row) => row.tenant);
}

/**
 * Verifies a tenant's chain in the database: its entries in place order, its signed removal records and
 * checkpoints (signed with `trustedKey`, the data dir's), its head; then that no entry lacks a link.
 */
export async function verifyStoredChain(
  database: Database,
  tenant: string,
  trustedKey: string,
  onProgress?: (progress: VerifyProgress) => void,
): Promise<ChainVerdict> {
  const { db } = database;
  const [head, checkpoints, removals, counted] = await Promise.all([
    db
      .selectFrom('audit_chain_heads')
      .select(['seq', 'hash'])
      .where('tenant', '=', tenant)
      .executeTakeFirst(),
    db
      .selectFrom('audit_chain_checkpoints')
      .selectAll()
      .where('tenant', '=', tenant)
      .orderBy('seq')
      .execute(),
    db.selectFrom('audit_chain_removals').selectAll().where('tenant', '=', tenant).execute(),
    db
      .selectFrom('audit_entries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('tenant', '=', tenant)
      .executeTakeFirst(),
  ]);
  const total = counted?.n ?? 0;
  const walker = new ChainWalker({
    tenant,
    trustedKey,
    headSeq: head?.seq,
    recordedHeadHash: head?.hash,
    checkpoints: checkpoints.map((row) => ({
      seq: row.seq,
      hash: row.hash,
      signedAt: row.signed_at,
      publicKey: row.public_key,
      signature: row.signature,
    })),
    removals: removals.map((row) => ({
      fromSeq: row.from_seq,
      toSeq: row.to_seq,
      count: row.count,
      prevHash: row.prev_hash,
      lastHash: row.last_hash,
      policy: row.policy,
      removedAt: row.removed_at,
      publicKey: row.public_key,
      signature: row.signature,
    })),
  });
  let after = 0;
  const readBatch = async (): Promise<ChainLink[]> => {
    const rows = await db
      .selectFrom('audit_entries')
      .select(['id', 'chain_seq', 'chain_hash', 'entry'])
      .where('tenant', '=', tenant)
      .where('chain_seq', '>', after)
      .orderBy('chain_seq')
      .limit(BATCH)
      .execute();
    const links = rows.map((row) => ({
      id: row.id,
      seq: row.chain_seq!,
      hash: row.chain_hash ?? '',
      canonical: row.entry,
    }));
    if (links.length > 0) after = links.at(-1)!.seq;
    return links;
  };
  let batch = await readBatch();
  while (batch.length > 0 && !walker.done) {
    // SQLite answers synchronously: without a turn of the event loop per batch, a long walk would hold every
    // request (the gateway's too) and no one could follow its progress.
    await yieldToEventLoop();
    const following = batch.length === BATCH ? await readBatch() : [];
    walker.check(batch, following);
    onProgress?.({ tenant, checked: walker.progress, total });
    batch = following;
  }
  const verdict = walker.finish();
  if (verdict.intact && (await backlogState(database)) === 'done') {
    const unlinked = await db
      .selectFrom('audit_entries')
      .select('id')
      .where('tenant', '=', tenant)
      .where('chain_seq', 'is', null)
      .orderBy('id')
      .executeTakeFirst();
    if (unlinked) {
      verdict.intact = false;
      verdict.broken = {
        kind: 'inserted',
        seq: 0,
        entryId: unlinked.id,
        message: `Entry ${unlinked.id} has no link in the chain: it was inserted into the database directly.`,
      };
    }
  }
  return verdict;
}

/** The tenants a verification covers: one, or every chained tenant's (Gatehouse's own always) for none or `*`. */
export async function tenantsToVerify(database: Database, tenant: string | undefined): Promise<string[]> {
  return tenant === undefined || tenant === '*'
    ? [...new Set([OWN_TENANT, ...(await chainedTenants(database))])].sort()
    : [tenant];
}

/** The entries of each of these tenants: what a verification of them walks over (its progress). */
export async function entriesToVerify(
  database: Database,
  tenants: readonly string[],
): Promise<Map<string, number>> {
  if (tenants.length === 0) return new Map();
  const rows = await database.db
    .selectFrom('audit_entries')
    .select((eb) => ['tenant', eb.fn.countAll<number | string>().as('n')])
    .where('tenant', 'in', tenants)
    .groupBy('tenant')
    .execute();
  return new Map(rows.map((row) => [row.tenant, Number(row.n)]));
}

/**
 * Verifies one tenant's chain, or every chained tenant's (Gatehouse's own always) when `tenant` is absent or
 * `*`, stopping each at its first broken link. Progress counts the entries walked over, of all the tenants: a
 * tenant's entries after its break count as passed, so the count ends at the total.
 */
export async function verifyStoredChains(
  database: Database,
  trustedKey: string,
  tenant: string | undefined,
  onProgress?: (progress: VerifyProgress) => void,
  tenants?: readonly string[],
): Promise<ChainVerdict[]> {
  const names = tenants ?? (await tenantsToVerify(database, tenant));
  const counts = onProgress ? await entriesToVerify(database, names) : new Map<string, number>();
  const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
  const verdicts: ChainVerdict[] = [];
  let before = 0;
  for (const name of names) {
    const verdict = await verifyStoredChain(
      database,
      name,
      trustedKey,
      onProgress &&
        ((progress) =>
          onProgress({ tenant: name, checked: Math.min(total, before + progress.checked), total })),
    );
    verdicts.push(verdict);
    if (onProgress) {
      before += counts.get(name) ?? 0;
      onProgress({ tenant: name, checked: Math.min(total, before), total });
    }
  }
  return verdicts;
}
