import { sql } from 'kysely';
import type { Database, Tx } from '../../storage/database.js';
import type { AuditResource, RetentionPolicy } from '../audit-entry.js';
import { CountDeltas } from './audit-count-deltas.js';
import { AUDIT_ENTRY_COLUMNS, textColumn } from './audit-rows.js';
import { recordRemovals, type RemovalPolicy } from '../chain/chain-removals.js';
import type { ChainSigner } from '../chain/chain-signer.js';

const MOVE_CHUNK = 2_000;

/**
 * Moves entries out of the trail into `audit_entries_removed`, stamped with the time of the removal, in
 * transactions of a few thousand: what retention and an operator's history removal do. Counts follow in the same
 * transaction. Stops before the next transaction once `signal` is aborted (a shutdown does not wait for a long
 * retention pass). Returns how many were moved.
 */
export async function moveToRemoved(
  database: Database,
  ids: readonly number[],
  removedAt: number,
  policy: RemovalPolicy,
  signer?: ChainSigner,
  signal?: AbortSignal,
): Promise<number> {
  let moved = 0;
  for (let start = 0; start < ids.length && !signal?.aborted; start += MOVE_CHUNK) {
    const chunk = ids.slice(start, start + MOVE_CHUNK);
    moved += await database.transaction((trx) => moveChunk(database, trx, chunk, removedAt, policy, signer));
  }
  return moved;
}

async function moveChunk(
  database: Database,
  trx: Tx,
  ids: number[],
  removedAt: number,
  policy: RemovalPolicy,
  signer: ChainSigner | undefined,
): Promise<number> {
  const rows = await trx
    .selectFrom('audit_entries')
    .select(['id', 'tenant', 'time_ms', 'action_key', 'user_key', 'chain_seq', 'chain_hash'])
    .where('id', 'in', ids)
    .execute();
  if (rows.length === 0) return 0;
  const present = rows.map((row) => row.id);
  await trx
    .insertInto('audit_entries_removed')
    .columns([...AUDIT_ENTRY_COLUMNS, 'removed_at'])
    .expression(
      trx
        .selectFrom('audit_entries')
        .select([...AUDIT_ENTRY_COLUMNS, sql.lit(removedAt).as('removed_at')])
        .where('id', 'in', present),
    )
    .execute();
  await trx.deleteFrom('audit_resources').where('entry_id', 'in', present).execute();
  await trx.deleteFrom('audit_entries').where('id', 'in', present).execute();
  const deltas = new CountDeltas();
  for (const row of rows) deltas.add(row.tenant, row.action_key, row.user_key, row.time_ms, -1);
  await deltas.apply(database, trx);
  await recordRemovals(trx, rows, policy, removedAt, signer);
  return rows.length;
}

/**
 * The ids retention removes: general entries (and configuration entries none of whose resources lives, and
 * agent entries without an agent group) older than the maximum age; agent entries of a group beyond its newest
 * `agentWindow`, whatever their age. `isResourceLive` is asked once per distinct resource.
 */
export async function planRetention(database: Database, policy: RetentionPolicy): Promise<number[]> {
  const { db } = database;
  const cutoff = policy.now - policy.maxAgeMs;
  const ids: number[] = [];

  const aged = await db
    .selectFrom('audit_entries')
    .select('id')
    .where('time_ms', '<', cutoff)
    .where('category', '!=', 'configuration')
    .where('agent_group_id', 'is', null)
    .execute();
  for (const row of aged) ids.push(row.id);

  const configuration = await db
    .selectFrom('audit_entries as e')
    .leftJoin('audit_resources as r', 'r.entry_id', 'e.id')
    .select(['e.id', 'r.resource_type', 'r.resource_id'])
    .where('e.time_ms', '<', cutoff)
    .where('e.category', '=', 'configuration')
    .execute();
  const liveness = new Map<string, boolean>();
  const isLive = (resource: AuditResource): boolean => {
    const key = `${resource.type}\u0000${resource.id}`;
    let live = liveness.get(key);
    if (live === undefined) {
      live = policy.isResourceLive(resource);
      liveness.set(key, live);
    }
    return live;
  };
  const keep = new Set<number>();
  const seen = new Set<number>();
  for (const row of configuration) {
    seen.add(row.id);
    if (
      row.resource_type !== null &&
      row.resource_id !== null &&
      isLive({ type: row.resource_type, id: row.resource_id })
    ) {
      keep.add(row.id);
    }
  }
  for (const id of seen) if (!keep.has(id)) ids.push(id);

  for (const group of await groupsBeyondWindow(database, policy.agentWindow)) {
    const excess = group.n - policy.agentWindow;
    if (excess <= 0) continue;
    const old = await db
      .selectFrom('audit_entries')
      .select('id')
      .where('tenant', '=', group.tenant)
      .where('agent_group_id', '=', group.agent_group_id)
      .orderBy('time_ms', 'desc')
      .orderBy('id', 'desc')
      .limit(excess)
      .offset(policy.agentWindow)
      .execute();
    for (const row of old) ids.push(row.id);
  }
  return ids;
}

/**
 * The tenants' agent groups with more entries than the window. The window is per tenant (two tenants' agent groups
 * may share an id), but a group with no more entries than the window in all tenants together has no more in any
 * one: that count comes from the agent-window index alone. Only the groups beyond it are counted per tenant, which
 * reads their rows. (Counting per tenant and group over the whole trail read every row: 0.7 s for 200,000
 * entries, holding up a start's first answers on SQLite.)
 */
async function groupsBeyondWindow(
  database: Database,
  window: number,
): Promise<{ tenant: string; agent_group_id: string | null; n: number }[]> {
  // A bigint, which pg returns as text.
  const count = sql<number | string>`count(*)`;
  const crowded = await database.db
    .selectFrom('audit_entries')
    .select('agent_group_id')
    .where('agent_group_id', 'is not', null)
    .groupBy('agent_group_id')
    .having(count, '>', window)
    .execute();
  const groups = [];
  for (const { agent_group_id } of crowded) {
    const perTenant = await database.db
      .selectFrom('audit_entries')
      .select(['tenant', count.as('n')])
      .where('agent_group_id', '=', agent_group_id)
      .groupBy('tenant')
      .execute();
    groups.push(...perTenant.map(({ tenant, n }) => ({ tenant, agent_group_id, n: Number(n) })));
  }
  return groups;
}

/** Configuration entries that name the resource. */
export async function planHistoryRemoval(
  database: Database,
  resource: Pick<AuditResource, 'type' | 'id'>,
): Promise<number[]> {
  const rows = await database.db
    .selectFrom('audit_resources as r')
    .innerJoin('audit_entries as e', 'e.id', 'r.entry_id')
    .select('e.id')
    .where('r.resource_type', '=', textColumn(resource.type))
    .where('r.resource_id', '=', textColumn(resource.id))
    .where('e.category', '=', 'configuration')
    .execute();
  return [...new Set(rows.map((row) => row.id))];
}

/** Removed entries older than the restore window are gone for good. */
export async function purgeRemoved(database: Database, before: number): Promise<void> {
  await database.db.deleteFrom('audit_entries_removed').where('removed_at', '<', before).execute();
}
