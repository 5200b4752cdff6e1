import { sql, type Kysely } from 'kysely';

/**
 * Tamper evidence for the audit trail (docs/AUDIT-CHAIN.md). Every entry gets its place in its tenant's chain
 * (`chain_seq`, 1, 2, … per tenant) and its link hash (`chain_hash`); `audit_chain_heads` holds each chain's last
 * link, `audit_chain_checkpoints` the signed checkpoints and `audit_chain_removals` the signed records of what
 * retention or an operator removed. Existing rows are chained when the database is next opened
 * (`core/audit/chain/chain-backlog.ts`, in batches, resumable): the meta key `audit.chain.backlog` says whether
 * that is still to do.
 */
export function auditChain() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const table of ['audit_entries', 'audit_entries_removed']) {
        await db.schema.alterTable(table).addColumn('chain_seq', 'bigint').execute();
        await db.schema.alterTable(table).addColumn('chain_hash', 'text').execute();
      }
      await db.schema
        .createIndex('audit_entries_by_chain')
        .on('audit_entries')
        .columns(['tenant', 'chain_seq'])
        .unique()
        .execute();
      await db.schema
        .createTable('audit_chain_heads')
        .addColumn('tenant', 'text', (c) => c.primaryKey())
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('audit_chain_checkpoints')
        .addColumn('tenant', 'text', (c) => c.notNull())
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull())
        .addColumn('signed_at', 'bigint', (c) => c.notNull())
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('signature', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('audit_chain_checkpoints_pk', ['tenant', 'seq'] as never)
        .execute();
      await db.schema
        .createTable('audit_chain_removals')
        .addColumn('tenant', 'text', (c) => c.notNull())
        .addColumn('from_seq', 'bigint', (c) => c.notNull())
        .addColumn('to_seq', 'bigint', (c) => c.notNull())
        .addColumn('count', 'bigint', (c) => c.notNull())
        .addColumn('prev_hash', 'text', (c) => c.notNull())
        .addColumn('last_hash', 'text', (c) => c.notNull())
        .addColumn('policy', 'text', (c) => c.notNull())
        .addColumn('removed_at', 'bigint', (c) => c.notNull())
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('signature', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('audit_chain_removals_pk', ['tenant', 'from_seq'] as never)
        .execute();
      const existing = await sql<{ n: number }>`select count(*) as n from audit_entries`.execute(db);
      const pending = (existing.rows[0]?.n ?? 0) > 0;
      await sql`insert into meta (key, value) values ('audit.chain.backlog', ${pending ? 'pending' : 'done'})`.execute(
        db,
      );
    },
  };
}
