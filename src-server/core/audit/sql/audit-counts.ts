import { sql } from 'kysely';
import type { Database, Tx } from '../../storage/database.js';
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
 * of the time range counted from the rows (at most a day's worth of index each).
 */
export async function countBuckets(reader: Reader, filter: AuditFilter): Promise<CountedBucket[]> {
  const { whole, partial } = splitRange(filter.startMs, filter.endMs, DAY_MS);
  const buckets: CountedBucket[] = [];
  if (whole) {
    for (const { day, n } of await wholeDayCounts(reader, filter, whole.first, whole.end)) {
      buckets.push({ startMs: day * DAY_MS, endMs: (day + 1) * DAY_MS, count: n });
    }
  }
  for (const piece of partial) {
    const count = await countRows(reader, { ...filter, startMs: piece.startMs, endMs: piece.endMs });
    buckets.push({ ...piece, count });
  }
  return buckets.sort((a, b) => b.startMs - a.startMs);
}

async function wholeDayCounts(
  reader: Reader,
  filter: AuditFilter,
  first: number | undefined,
  end: number | undefined,
): Promise<{ day: number; n: number }[]> {
  // No counts per instance: its entries of the range are counted per day from the rows (an index on instance and
  // time keeps that to the instance's own entries).
  if (filter.instance !== undefined) return countRowsPerDay(reader, filter, first, end);
  const action = filter.actionName === undefined ? undefined : nameKey(filter.actionName);
  const user = filter.userName === undefined ? undefined : nameKey(filter.userName);
  if (action !== undefined && user !== undefined) {
    return reader
      .selectFrom('audit_action_user_day_counts')
      .select(['day', 'n'])
      .where('action_key', '=', action)
      .where('user_key', '=', user)
      .$if(first !== undefined, (q) => q.where('day', '>=', first!))
      .$if(end !== undefined, (q) => q.where('day', '<', end!))
      .execute();
  }
  if (action !== undefined) {
    return reader
      .selectFrom('audit_action_day_counts')
      .select(['day', 'n'])
      .where('action_key', '=', action)
      .$if(first !== undefined, (q) => q.where('day', '>=', first!))
      .$if(end !== undefined, (q) => q.where('day', '<', end!))
      .execute();
  }
  if (user !== undefined) {
    return reader
      .selectFrom('audit_user_day_counts')
      .select(['day', 'n'])
      .where('user_key', '=', user)
      .$if(first !== undefined, (q) => q.where('day', '>=', first!))
      .$if(end !== undefined, (q) => q.where('day', '<', end!))
      .execute();
  }
  return reader
    .selectFrom('audit_day_counts')
    .select(['day', 'n'])
    .$if(first !== undefined, (q) => q.where('day', '>=', first!))
    .$if(end !== undefined, (q) => q.where('day', '<', end!))
    .execute();
}

async function countRowsPerDay(
  reader: Reader,
  filter: AuditFilter,
  first: number | undefined,
  end: number | undefined,
): Promise<{ day: number; n: number }[]> {
  // Integer division on both engines (times are positive); a literal, so select and group by are one expression.
  const day = sql<number>`time_ms / ${sql.lit(DAY_MS)}`;
  return filteredEntries(reader, {
    ...filter,
    startMs: first === undefined ? undefined : first * DAY_MS,
    endMs: end === undefined ? undefined : end * DAY_MS,
  })
    .select([day.as('day'), (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy(day)
    .execute();
}

async function countRows(reader: Reader, filter: AuditFilter): Promise<number> {
  const row = await filteredEntries(reader, filter)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return row?.n ?? 0;
}

/** `audit_entries` with the filter applied (names by their lower-cased keys). */
export function filteredEntries(reader: Reader, filter: AuditFilter) {
  return reader
    .selectFrom('audit_entries')
    .$if(filter.actionName !== undefined, (q) => q.where('action_key', '=', nameKey(filter.actionName!)))
    .$if(filter.userName !== undefined, (q) => q.where('user_key', '=', nameKey(filter.userName!)))
    .$if(filter.instance !== undefined, (q) => q.where('instance', '=', textColumn(filter.instance!)))
    .$if(filter.startMs !== undefined, (q) => q.where('time_ms', '>=', filter.startMs!))
    .$if(filter.endMs !== undefined, (q) => q.where('time_ms', '<', filter.endMs!));
}
