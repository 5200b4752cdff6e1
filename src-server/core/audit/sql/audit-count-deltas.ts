import type { Database, Tx } from '../../storage/database.js';
import { HOUR_MS } from '../../storage/time-buckets.js';
import { dayOf, nameKey, textColumn } from './audit-rows.js';

const HOUR_COUNT_TABLES = [
  'audit_hour_counts',
  'audit_action_hour_counts',
  'audit_user_hour_counts',
] as const;

interface NameTally {
  name: string;
  n: number;
}

/** One tenant's day: its count, and its counts per action, per user, per action then user. */
interface DayTally {
  n: number;
  actions: Map<string, NameTally>;
  users: Map<string, NameTally>;
  pairs: Map<string, Map<string, { n: number }>>;
}

/** One tenant's hour: its count, and its counts per action and per user key. */
interface HourTally {
  n: number;
  actions: Map<string, number>;
  users: Map<string, number>;
}

/**
 * Changes to the per-day counts (all entries, per action, per user, per action and user) and the per-hour counts
 * (all entries, per action, per user), gathered while rows are added or removed and written in the same
 * transaction, so a count never disagrees with the rows.
 *
 * Tallied in maps nested by tenant, then day or hour, then name key: no key string built per entry, and the
 * entries of one tenant's day (an import's run of them) find theirs in the last one looked up.
 */
export class CountDeltas {
  private readonly days = new Map<string, Map<number, DayTally>>();
  private readonly hours = new Map<string, Map<number, HourTally>>();
  private lastDay: { tenant: string; day: number; tally: DayTally } | undefined;
  private lastHour: { tenant: string; hour: number; tally: HourTally } | undefined;

  add(tenant: string, actionName: string, userName: string, timeMs: number, delta: 1 | -1): void {
    this.addNamed(tenant, actionName, userName, nameKey(actionName), nameKey(userName), timeMs, delta);
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
    const day = this.dayTally(tenant, dayOf(timeMs));
    day.n += delta;
    bumpName(day.actions, action, actionName, delta);
    bumpName(day.users, user, userName, delta);
    let byUser = day.pairs.get(action);
    if (!byUser) day.pairs.set(action, (byUser = new Map<string, { n: number }>()));
    const pair = byUser.get(user);
    if (pair) pair.n += delta;
    else byUser.set(user, { n: delta });
    const hour = this.hourTally(tenant, Math.floor(timeMs / HOUR_MS));
    hour.n += delta;
    hour.actions.set(action, (hour.actions.get(action) ?? 0) + delta);
    hour.users.set(user, (hour.users.get(user) ?? 0) + delta);
  }

  private dayTally(tenant: string, day: number): DayTally {
    const last = this.lastDay;
    if (last !== undefined && last.day === day && last.tenant === tenant) return last.tally;
    const tally = tallyIn(this.days, tenant, day, () => ({
      n: 0,
      actions: new Map(),
      users: new Map(),
      pairs: new Map(),
    }));
    this.lastDay = { tenant, day, tally };
    return tally;
  }

  private hourTally(tenant: string, hour: number): HourTally {
    const last = this.lastHour;
    if (last !== undefined && last.hour === hour && last.tenant === tenant) return last.tally;
    const tally = tallyIn(this.hours, tenant, hour, () => ({ n: 0, actions: new Map(), users: new Map() }));
    this.lastHour = { tenant, hour, tally };
    return tally;
  }

  async apply(database: Database, trx: Tx): Promise<void> {
    const dayRows: { tenant: string; day: number; n: number }[] = [];
    const actionRows: { tenant: string; action_key: string; day: number; action_name: string; n: number }[] =
      [];
    const userRows: { tenant: string; user_key: string; day: number; user_name: string; n: number }[] = [];
    const pairRows: { tenant: string; action_key: string; user_key: string; day: number; n: number }[] = [];
    for (const [tenant, days] of this.days)
      for (const [day, tally] of days) {
        dayRows.push({ tenant, day, n: tally.n });
        for (const [key, { name, n }] of tally.actions)
          actionRows.push({ tenant, action_key: key, day, action_name: name, n });
        for (const [key, { name, n }] of tally.users)
          userRows.push({ tenant, user_key: key, day, user_name: name, n });
        for (const [action, byUser] of tally.pairs)
          for (const [user, { n }] of byUser)
            pairRows.push({ tenant, action_key: action, user_key: user, day, n });
      }
    const hourRows: { tenant: string; hour: number; n: number }[] = [];
    const actionHourRows: { tenant: string; action_key: string; hour: number; n: number }[] = [];
    const userHourRows: { tenant: string; user_key: string; hour: number; n: number }[] = [];
    for (const [tenant, hours] of this.hours)
      for (const [hour, tally] of hours) {
        hourRows.push({ tenant, hour, n: tally.n });
        for (const [key, n] of tally.actions) actionHourRows.push({ tenant, action_key: key, hour, n });
        for (const [key, n] of tally.users) userHourRows.push({ tenant, user_key: key, hour, n });
      }
    await database.bulkIncrement(trx, 'audit_day_counts', ['tenant', 'day'], dayRows);
    await database.bulkIncrement(trx, 'audit_hour_counts', ['tenant', 'hour'], hourRows);
    await database.bulkIncrement(trx, 'audit_action_day_counts', ['tenant', 'action_key', 'day'], actionRows);
    await database.bulkIncrement(trx, 'audit_user_day_counts', ['tenant', 'user_key', 'day'], userRows);
    await database.bulkIncrement(
      trx,
      'audit_action_user_day_counts',
      ['tenant', 'action_key', 'user_key', 'day'],
      pairRows,
    );
    await database.bulkIncrement(
      trx,
      'audit_action_hour_counts',
      ['tenant', 'action_key', 'hour'],
      actionHourRows,
    );
    await database.bulkIncrement(trx, 'audit_user_hour_counts', ['tenant', 'user_key', 'hour'], userHourRows);
    const shrunk = dayRows.filter((count) => count.n < 0);
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
    const hasNegative = (counts: Map<string, number>) => [...counts.values()].some((n) => n < 0);
    for (const [tenant, hours] of this.hours)
      for (const [hour, tally] of hours)
        if (tally.n < 0 || hasNegative(tally.actions) || hasNegative(tally.users)) {
          let some = shrunk.get(tenant);
          if (!some) shrunk.set(tenant, (some = new Set()));
          some.add(hour);
        }
    return shrunk;
  }
}

/** The tally of a tenant's day or hour, made by `make` when there is none yet. */
function tallyIn<T>(byTenant: Map<string, Map<number, T>>, tenant: string, key: number, make: () => T): T {
  let tallies = byTenant.get(tenant);
  if (!tallies) byTenant.set(tenant, (tallies = new Map<number, T>()));
  let tally = tallies.get(key);
  if (!tally) tallies.set(key, (tally = make()));
  return tally;
}

function bumpName(tallies: Map<string, NameTally>, key: string, name: string, delta: number): void {
  const tally = tallies.get(key);
  if (tally) tally.n += delta;
  else tallies.set(key, { name: textColumn(name), n: delta });
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
