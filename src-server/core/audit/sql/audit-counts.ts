import { sql, type SelectQueryBuilder } from 'kysely';
import type { Database, Tx } from '../../storage/database.js';
import type { GatehouseSchema } from '../../storage/schema.js';
import { DAY_MS, splitRange, type CountedBucket } from '../../storage/time-buckets.js';
import type { AuditFilter } from '../audit-entry.js';
import { dayOf, nameKey, textColumn } from './audit-rows.js';

type Reader = Pick<Tx, 'selectFrom'>;

const SEP = '\u0000';

/**
 * Changes to the per-day counts (all entries, per action, per user, per action and user), gathered while rows
 * are added or removed and written in the same transaction, so a count never disagrees with the rows.
 */
export class CountDeltas {
  private readonly days = new Map<number, number>();
  private readonly actions = new Map<string, { key: string; day: number; name: string; n: number }>();
  private readonly users = new Map<string, { key: string; day: number; name: string; n: number }>();
  private readonly pairs = new Map<string, { action: string; user: string; day: number; n: number }>();

  add(actionName: string, userName: string, timeMs: number, delta: 1 | -1): void {
    const day = dayOf(timeMs);
    const action = nameKey(actionName);
    const user = nameKey(userName);
    this.days.set(day, (this.days.get(day) ?? 0) + delta);
    bump(
      this.actions,
      `${action}${SEP}${day}`,
      () => ({ key: action, day, name: textColumn(actionName), n: 0 }),
      delta,
    );
    bump(
      this.users,
      `${user}${SEP}${day}`,
      () => ({ key: user, day, name: textColumn(userName), n: 0 }),
      delta,
    );
    bump(this.pairs, `${action}${SEP}${user}${SEP}${day}`, () => ({ action, user, day, n: 0 }), delta);
  }

  async apply(database: Database, trx: Tx): Promise<void> {
    await database.bulkIncrement(
      trx,
      'audit_day_counts',
      ['day'],
      [...this.days].map(([day, n]) => ({ day, n })),
    );
    await database.bulkIncrement(
      trx,
      'audit_action_day_counts',
      ['action_key', 'day'],
      [...this.actions.values()].map(({ key, day, name, n }) => ({
        action_key: key,
        day,
        action_name: name,
        n,
      })),
    );
    await database.bulkIncrement(
      trx,
      'audit_user_day_counts',
      ['user_key', 'day'],
      [...this.users.values()].map(({ key, day, name, n }) => ({ user_key: key, day, user_name: name, n })),
    );
    await database.bulkIncrement(
      trx,
      'audit_action_user_day_counts',
      ['action_key', 'user_key', 'day'],
      [...this.pairs.values()].map(({ action, user, day, n }) => ({
        action_key: action,
        user_key: user,
        day,
        n,
      })),
    );
    if ([...this.days.values()].some((n) => n < 0)) await dropEmptyCounts(trx, [...this.days.keys()]);
  }
}

function bump<V extends { n: number }>(
  map: Map<string, V>,
  key: string,
  create: () => V,
  delta: number,
): void {
  let value = map.get(key);
  if (!value) {
    value = create();
    map.set(key, value);
  }
  value.n += delta;
}

function* chunks<T>(rows: T[], size = 500): Generator<T[]> {
  for (let start = 0; start < rows.length; start += size) yield rows.slice(start, start + size);
}

/** After removals: counts that reached zero go, so the facets list only names that are present. */
async function dropEmptyCounts(trx: Tx, days: number[]): Promise<void> {
  for (const some of chunks(days)) {
    await trx.deleteFrom('audit_day_counts').where('day', 'in', some).where('n', '<=', 0).execute();
    await trx.deleteFrom('audit_action_day_counts').where('day', 'in', some).where('n', '<=', 0).execute();
    await trx.deleteFrom('audit_user_day_counts').where('day', 'in', some).where('n', '<=', 0).execute();
    await trx
      .deleteFrom('audit_action_user_day_counts')
      .where('day', 'in', some)
      .where('n', '<=', 0)
      .execute();
  }
}

/**
 * The matching entries per day, newest first, exact: whole days from the counts, the partial days at the ends
 * of the time range counted from the rows (at most a day's worth of index each). One statement (the pieces
 * joined by UNION ALL): on PostgreSQL each statement is a round trip, and a list already needs four (begin,
 * counts, rows, commit).
 */
export async function countBuckets(reader: Reader, filter: AuditFilter): Promise<CountedBucket[]> {
  const { whole, partial } = splitRange(filter.startMs, filter.endMs, DAY_MS);
  // `piece` says which part a row counts: -1 a whole day (`day` says which), k the k-th partial piece.
  const pieces = partial.map((piece, k): CountQuery =>
    filteredEntries(reader, { ...filter, startMs: piece.startMs, endMs: piece.endMs }).select((eb) => [
      sql.lit(k).as('piece'),
      sql.lit(0).as('day'),
      eb.fn.countAll<number>().as('n'),
    ]),
  );
  const wholeDays = whole ? wholeDayCounts(reader, filter, whole.first, whole.end) : undefined;
  const [head, ...rest]: CountQuery[] = wholeDays ? [wholeDays, ...pieces] : pieces;
  if (!head) return [];
  let query = head;
  for (const next of rest) query = query.unionAll(next);
  const buckets: CountedBucket[] = [];
  for (const { piece, day, n } of await query.execute()) {
    if (piece < 0) buckets.push({ startMs: day * DAY_MS, endMs: (day + 1) * DAY_MS, count: n });
    else buckets.push({ ...partial[piece]!, count: n });
  }
  return buckets.sort((a, b) => b.startMs - a.startMs);
}

/** A count query of any of the tables: the union's arms differ only in their FROM. */
type CountQuery = SelectQueryBuilder<
  GatehouseSchema,
  keyof GatehouseSchema,
  { piece: number; day: number; n: number }
>;

/** The per-day counts of whole days [first, end), from the count table that serves the filter. */
function wholeDayCounts(
  reader: Reader,
  filter: AuditFilter,
  first: number | undefined,
  end: number | undefined,
): CountQuery {
  const action = filter.actionName === undefined ? undefined : nameKey(filter.actionName);
  const user = filter.userName === undefined ? undefined : nameKey(filter.userName);
  const columns = [sql.lit(-1).as('piece'), 'day', 'n'] as const;
  const days = <Q extends { where: (column: 'day', op: '>=' | '<', value: number) => Q }>(q: Q): Q => {
    let bounded = q;
    if (first !== undefined) bounded = bounded.where('day', '>=', first);
    if (end !== undefined) bounded = bounded.where('day', '<', end);
    return bounded;
  };
  if (action !== undefined && user !== undefined) {
    return days(
      reader
        .selectFrom('audit_action_user_day_counts')
        .select(columns)
        .where('action_key', '=', action)
        .where('user_key', '=', user),
    );
  }
  if (action !== undefined) {
    return days(
      reader.selectFrom('audit_action_day_counts').select(columns).where('action_key', '=', action),
    );
  }
  if (user !== undefined) {
    return days(reader.selectFrom('audit_user_day_counts').select(columns).where('user_key', '=', user));
  }
  return days(reader.selectFrom('audit_day_counts').select(columns));
}

/** `audit_entries` with the filter applied (names by their lower-cased keys). */
export function filteredEntries(reader: Reader, filter: AuditFilter) {
  return reader
    .selectFrom('audit_entries')
    .$if(filter.actionName !== undefined, (q) => q.where('action_key', '=', nameKey(filter.actionName!)))
    .$if(filter.userName !== undefined, (q) => q.where('user_key', '=', nameKey(filter.userName!)))
    .$if(filter.startMs !== undefined, (q) => q.where('time_ms', '>=', filter.startMs!))
    .$if(filter.endMs !== undefined, (q) => q.where('time_ms', '<', filter.endMs!));
}
