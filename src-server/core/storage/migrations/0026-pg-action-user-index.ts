import { sql, type Kysely } from 'kysely';
import type { EngineKind } from '../engine-kind.js';

/**
 * PostgreSQL: an index on `(tenant, action_key, user_key, time_ms, id)`, so a filter on an action and a user (the
 * pair `audit_action_user_day_counts` counts) reads exactly its matches, in list order, for its page and for the
 * partial days its count reads from the rows. Before, PostgreSQL read such a filter through the user index (the
 * action tested in the index): every entry of the user in the range, however few matched. Over 1M entries, a week
 * of a busy user (9,000–19,000 entries) and an action of it (137–437 matches) touched 430–530 buffers and took
 * 5–10 ms of execution at load 10, where this index touches 160–220 (the page's rows) and takes 0.3–0.6 ms.
 *
 * An index more for each entry written, where the action index could instead have carried the user after its
 * keyset order (as SQLite's does since 0025): then the planner reads whichever of the two names has fewer entries in
 * the range, which for two busy names is still thousands (a week of a 5,700-entry user and a 4,400-entry action:
 * 300 buffers, 2.5 ms) — the bench's all-filters shape kept a tail there.
 * Built in one pass over the table (over 1M entries ~10 s, once). SQLite: nothing (`withPairIndexChoice` reads the
 * smaller of its two indexes, each of which carries the other name).
 */
export function pgActionUserIndex(engine: EngineKind) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (engine !== 'postgres') return;
      await sql`create index if not exists audit_entries_by_tenant_action_user
        on audit_entries (tenant, action_key, user_key, time_ms, id)`.execute(db);
    },
  };
}
