import { randomUUID } from 'node:crypto';
import type { SavedFilter } from '../../contracts/saved-filter-schemas.js';
import { ErrorCode } from '../../contracts/error-codes.js';
import { conflict, notFound } from '../../http/problem.js';
import type { Database } from '../../storage/database.js';
import type { SavedFilterTable } from '../../storage/schema.js';

function viewOf(row: SavedFilterTable): SavedFilter {
  return {
    id: row.id,
    name: row.name,
    filter: JSON.parse(row.filter) as Record<string, string>,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/**
 * The audit viewer's saved filters, per user, in the `saved_filters` table (so every instance sharing the
 * database sees the same). A user sees and deletes only their own.
 */
export class SavedFilterStore {
  constructor(
    private readonly database: Database,
    private readonly now: () => number = Date.now,
  ) {}

  async list(userName: string): Promise<SavedFilter[]> {
    const rows = await this.database.db
      .selectFrom('saved_filters')
      .selectAll()
      .where('user_name', '=', userName)
      .orderBy('name_key')
      .execute();
    return rows.map(viewOf);
  }

  async create(
    userName: string,
    input: { name: string; filter: Record<string, string> },
  ): Promise<SavedFilter> {
    const name = input.name.trim();
    const row: SavedFilterTable = {
      id: randomUUID(),
      user_name: userName,
      name,
      name_key: name.toLowerCase(),
      filter: JSON.stringify(input.filter),
      created_at: this.now(),
    };
    const inserted = await this.database.db
      .insertInto('saved_filters')
      .values(row)
      .onConflict((oc) => oc.columns(['user_name', 'name_key']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
      const detail = `You already have a saved filter named ${name}.`;
      throw conflict(ErrorCode.GH_ERR_ALREADY_EXISTS, detail, { errors: { name: [detail] } });
    }
    return viewOf(row);
  }

  async remove(userName: string, id: string): Promise<SavedFilter> {
    const row = await this.database.db
      .selectFrom('saved_filters')
      .selectAll()
      .where('id', '=', id)
      .where('user_name', '=', userName)
      .executeTakeFirst();
    if (!row) throw notFound(`You have no saved filter ${id}.`);
    await this.database.db
      .deleteFrom('saved_filters')
      .where('id', '=', id)
      .where('user_name', '=', userName)
      .execute();
    return viewOf(row);
  }
}
