import type { Database, Tx } from '../../storage/database.js';
import { HOUR_MS } from '../../storage/time-buckets.js';
import { dayOf, nameKey, textColumn } from './audit-rows.js';

const SEP = '\u0000';

const HOUR_COUNT_TABLES = [
  'audit_hour_counts',
  'audit_action_hour_counts',
  'audit_user_hour_counts',
] as const;

/**
 * Changes to the per-day counts (all entries, per action, per user, per action and user) and the per-hour counts
 * (all entries, per action, per user), gathered while rows are added or removed and written in the same
 * transaction, so a count never disagrees with the rows.
 */
export class CountDeltas {
  private readonly days = new Map<string, { tenant: string; day: number; n: number }>();
  /** Per tenant, then per hour: numeric keys, no string built per entry (this runs for every imported entry). */
  private readonly hours = new Map<string, Map<number, number>>();
  private readonly actions = new Map<
    string,
    { tenant: string; key: string; day: number; name: string; n: number }
  >();
  private readonly users = new Map<
    string,
    { tenant: string; key: string; day: number; name: string; n: number }
  >();
  private readonly pairs = new Map<
    string,
    { tenant: string; action: string; user: string; day: number; n: number }
  >();
  /** Per tenant, hour and name key, as nested maps: no string built per entry. */
  private readonly actionHours: HourSplit = new Map();
  private readonly userHours: HourSplit = new Map();

  add(tenant: string, actionName: string, userName: string, timeMs: number, delta: 1 | -1): void {
    this.addKeyed(
      tenant,
      { actionName, userName, actionKey: nameKey(actionName), userKey: nameKey(userName) },
      timeMs,
      delta,
    );
  }

  /** `add` with the names' keys given. */
  addKeyed(
    tenant: string,
    {
      actionName,
      userName,
      actionKey,
      userKey,
    }: { actionName: string; userName: string; actionKey: string; userKey: string },
    timeMs: number,
    delta: 1 | -1,
  ): void {
    this.addNamed(tenant, actionName, userName, actionKey, userKey, timeMs, delta);
  }

  /** `addKeyed` with each value its own argument (an import prepares the keys off this thread, as columns). */
  addNamed(
    tenant: string,
    actionName: string,
    userName: string,
    action: string,
    user: string,
    timeMs: number,
    delta: 1 | -1,
  ): void {
    const day = dayOf(timeMs);
    bump(this.days, `${tenant}${SEP}${day}`, () => ({ tenant, day, n: 0 }), delta);
    let hours = this.hours.get(tenant);
    if (!hours) this.hours.set(tenant, (hours = new Map<number, number>()));
    const hour = Math.floor(timeMs / HOUR_MS);
    hours.set(hour, (hours.get(hour) ?? 0) + delta);
    bump(
      this.actions,
      `${tenant}${SEP}${action}${SEP}${day}`,
      () => ({ tenant, key: action, day, name: textColumn(actionName), n: 0 }),
      delta,
    );
    bump(
      this.users,
      `${tenant}${SEP}${user}${SEP}${day}`,
      () => ({ tenant, key: user, day, name: textColumn(userName), n: 0 }),
      delta,
    );
    bump(
      this.pairs,
      `${tenant}${SEP}${action}${SEP}${user}${SEP}${day}`,
      () => ({ tenant, action, user, day, n: 0 }),
      delta,
    );
    bumpHourSplit(this.actionHours, tenant, hour, action, delta);
    bumpHourSplit(this.userHours, tenant, hour, user, delta);
  }

  async apply(database: Database, trx: Tx): Promise<void> {
    await database.bulkIncrement(trx, 'audit_day_counts', ['tenant', 'day'], [...this.days.values()]);
    const hourRows = [...this.hours].flatMap(([tenant, hours]) =>
      [...hours].map(([hour, n]) => ({ tenant, hour, n })),
    );
    await database.bulkIncrement(trx, 'audit_hour_counts', ['tenant', 'hour'], hourRows);
    await database.bulkIncrement(
      trx,
      'audit_action_day_counts',
      ['tenant', 'action_key', 'day'],
      [...this.actions.values()].map(({ tenant, key, day, name, n }) => ({
        tenant,
        action_key: key,
        day,
        action_name: name,
        n,
      })),
    );
    await database.bulkIncrement(
      trx,
      'audit_user_day_counts',
      ['tenant', 'user_key', 'day'],
      [...this.users.values()].map(({ tenant, key, day, name, n }) => ({
        tenant,
        user_key: key,
        day,
        user_name: name,
        n,
      })),
    );
    await database.bulkIncrement(
      trx,
      'audit_action_user_day_counts',
      ['tenant', 'action_key', 'user_key', 'day'],
      [...this.pairs.values()].map(({ tenant, action, user, day, n }) => ({
        tenant,
        action_key: action,
        user_key: user,
        day,
        n,
      })),
    );
    await database.bulkIncrement(
      trx,
      'audit_action_hour_counts',
      ['tenant', 'action_key', 'hour'],
      hourSplitRows(this.actionHours).map(({ tenant, key, hour, n }) => ({
        tenant,
        action_key: key,
        hour,
        n,
      })),
    );
    await database.bulkIncrement(
      trx,
      'audit_user_hour_counts',
      ['tenant', 'user_key', 'hour'],
      hourSplitRows(this.userHours).map(({ tenant, key, hour, n }) => ({ tenant, user_key: key, hour, n })),
    );
    const shrunk = [...this.days.values()].filter((count) => count.n < 0);
    if (shrunk.length > 0) await dropEmptyCounts(trx, [...new Set(shrunk.map((count) => count.day))]);
    // Per tenant: the per-hour tables are keyed by tenant, then hour.
    for (const [tenant, hours] of this.#shrunkHours())
      for (const some of chunks([...hours]))
        for (const table of HOUR_COUNT_TABLES)
          await trx
            .deleteFrom(table)
            .where('tenant', '=', tenant)
            .where('hour', 'in', some)
            .where('n', '<=', 0)
            .execute();
  }

  /** Per tenant, the hours whose count of any name (or all) went down: where a count may have reached zero. */
  #shrunkHours(): Map<string, Set<number>> {
    const shrunk = new Map<string, Set<number>>();
    const note = (tenant: string, hour: number) => {
      let hours = shrunk.get(tenant);
      if (!hours) shrunk.set(tenant, (hours = new Set()));
      hours.add(hour);
    };
    for (const [tenant, hours] of this.hours) for (const [hour, n] of hours) if (n < 0) note(tenant, hour);
    for (const split of [this.actionHours, this.userHours])
      for (const { tenant, hour, n } of hourSplitRows(split)) if (n < 0) note(tenant, hour);
    return shrunk;
  }
}

type HourSplit = Map<string, Map<number, Map<string, number>>>;

function bumpHourSplit(split: HourSplit, tenant: string, hour: number, key: string, delta: number): void {
  let hours = split.get(tenant);
  if (!hours) split.set(tenant, (hours = new Map<number, Map<string, number>>()));
  let keys = hours.get(hour);
  if (!keys) hours.set(hour, (keys = new Map<string, number>()));
  keys.set(key, (keys.get(key) ?? 0) + delta);
}

function hourSplitRows(split: HourSplit): { tenant: string; hour: number; key: string; n: number }[] {
  return [...split].flatMap(([tenant, hours]) =>
    [...hours].flatMap(([hour, keys]) => [...keys].map(([key, n]) => ({ tenant, hour, key, n }))),
  );
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
