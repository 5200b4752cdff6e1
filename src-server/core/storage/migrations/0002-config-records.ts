import type { Kysely } from 'kysely';
import type { EngineKind } from '../engine-kind.js';

interface RevisionRow {
  id: number;
  committed_at: number;
  document: string;
}

interface RecordRow {
  kind: string;
  key: string;
  commit_id: number;
  ordinal: number;
  valid_from: number;
  valid_to: number | null;
  data: string;
}

interface Tables {
  config_revisions: RevisionRow;
  config_records: RecordRow;
  config_commits: { id: number; committed_at: number };
  sequences: { name: string; value: number };
}

/**
 * The configuration as a row per record instead of a whole document per change (a change to one policy rewrote
 * every API's operations). Each revision of 0001's `config_revisions` becomes a commit that writes the records it
 * changed, so the restore window's history carries over; then the old table goes.
 */
export function configRecords(engine: EngineKind) {
  const id = engine === 'sqlite' ? 'integer' : 'bigint';
  return {
    async up(untyped: Kysely<unknown>): Promise<void> {
      const db = untyped as unknown as Kysely<Tables>;
      await db.schema
        .createTable('config_commits')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('committed_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('config_records')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('commit_id', 'bigint', (c) => c.notNull())
        .addColumn('ordinal', 'bigint', (c) => c.notNull())
        .addColumn('valid_from', 'bigint', (c) => c.notNull())
        .addColumn('valid_to', 'bigint')
        .addColumn('data', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('config_records_pk', ['kind', 'key', 'commit_id'])
        .execute();
      await db.schema
        .createIndex('config_records_by_end')
        .on('config_records')
        .columns(['valid_to'])
        .execute();
      await carryOverRevisions(db);
      await db.schema.dropTable('config_revisions').execute();
    },
  };
}

/** As 0002 knows the configuration: arrays of records keyed by `id` (sign-in tickets by `ticketHash`). */
function rowsOf(document: string): Map<string, { kind: string; key: string; data: string }> {
  const data = JSON.parse(document) as Record<string, unknown>;
  const rows = new Map<string, { kind: string; key: string; data: string }>();
  for (const [kind, value] of Object.entries(data)) {
    if (Array.isArray(value)) {
      for (const record of value as Record<string, unknown>[]) {
        const key = String(record.id ?? record.ticketHash);
        rows.set(`${kind}\u0000${key}`, { kind, key, data: JSON.stringify(record) });
      }
    } else {
      rows.set(`${kind}\u0000`, { kind, key: '', data: JSON.stringify(value) });
    }
  }
  return rows;
}

async function carryOverRevisions(db: Kysely<Tables>): Promise<void> {
  const revisions = await db.selectFrom('config_revisions').selectAll().orderBy('id').execute();
  let previous = new Map<string, { kind: string; key: string; data: string }>();
  const ordinals = new Map<string, number>();
  for (const revision of revisions) {
    const at = revision.committed_at;
    const next = rowsOf(revision.document);
    await db.insertInto('config_commits').values({ id: revision.id, committed_at: at }).execute();
    for (const [id, row] of next) {
      if (previous.get(id)?.data === row.data) continue;
      if (previous.has(id)) await close(db, row.kind, row.key, at);
      if (!ordinals.has(id)) ordinals.set(id, ordinals.size);
      await db
        .insertInto('config_records')
        .values({
          ...row,
          commit_id: revision.id,
          ordinal: ordinals.get(id)!,
          valid_from: at,
          valid_to: null,
        })
        .execute();
    }
    for (const [id, row] of previous) if (!next.has(id)) await close(db, row.kind, row.key, at);
    previous = next;
  }
  const last = revisions.at(-1);
  if (!last) return;
  await db
    .insertInto('sequences')
    .values({ name: 'config_commits', value: last.id })
    .onConflict((conflict) => conflict.column('name').doUpdateSet({ value: last.id }))
    .execute();
}

async function close(db: Kysely<Tables>, kind: string, key: string, at: number): Promise<void> {
  await db
    .updateTable('config_records')
    .set({ valid_to: at })
    .where('kind', '=', kind)
    .where('key', '=', key)
    .where('valid_to', 'is', null)
    .execute();
}
