import type { RowColumns } from './row-columns.js';
import { SortedRowList } from './sorted-row-list.js';

/**
 * The live rows in list order, plus one posting list per action name and per user name in the same order.
 * Dead rows are in none of these lists.
 */
export class ListIndex {
  order: SortedRowList;
  byAction: SortedRowList[] = [];
  byUser: SortedRowList[] = [];

  constructor(private readonly columns: RowColumns) {
    this.order = new SortedRowList(columns, 1024);
  }

  /** Replaces the lists with `order` (sorted live rows) and posting lists derived from it. */
  rebuildFrom(order: Uint32Array, length: number): void {
    this.order = SortedRowList.fromSorted(this.columns, order, length);
    const { actions, users } = this.columns;
    const actionCounts: number[] = [];
    const userCounts: number[] = [];
    for (let i = 0; i < length; i++) {
      const row = order[i]!;
      actionCounts[actions[row]!] = (actionCounts[actions[row]!] ?? 0) + 1;
      userCounts[users[row]!] = (userCounts[users[row]!] ?? 0) + 1;
    }
    // The count arrays are sparse (ids nobody in `order` uses): Array.from gives undefined for their holes.
    const listOf = (count: number | undefined) => new SortedRowList(this.columns, count ?? 0);
    this.byAction = Array.from(actionCounts, listOf);
    this.byUser = Array.from(userCounts, listOf);
    for (let i = 0; i < length; i++) {
      const row = order[i]!;
      this.byAction[actions[row]!]!.push(row);
      this.byUser[users[row]!]!.push(row);
    }
  }

  insert(row: number): void {
    this.order.insert(row);
    this.postingFor(this.byAction, this.columns.actions[row]!).insert(row);
    this.postingFor(this.byUser, this.columns.users[row]!).insert(row);
  }

  /** Adds the live ones of `rows` (imports, log replay). */
  insertMany(rows: ArrayLike<number>): void {
    const live = this.columns.live;
    const accepted: number[] = [];
    for (let i = 0; i < rows.length; i++) if (live[rows[i]!]) accepted.push(rows[i]!);
    if (accepted.length === 0) return;
    if (accepted.length < 8) {
      for (const row of accepted) this.insert(row);
      return;
    }
    this.order.insertMany(Uint32Array.from(accepted));
    this.insertGrouped(this.byAction, this.columns.actions, accepted);
    this.insertGrouped(this.byUser, this.columns.users, accepted);
  }

  /** Removes rows that were just marked dead; `rows` tells which posting lists to visit. */
  dropDead(rows: ArrayLike<number>): void {
    if (rows.length === 0) return;
    const live = this.columns.live;
    const keep = (row: number): boolean => live[row] === 1;
    this.order.retain(keep);
    const actions = new Set<number>();
    const users = new Set<number>();
    for (let i = 0; i < rows.length; i++) {
      actions.add(this.columns.actions[rows[i]!]!);
      users.add(this.columns.users[rows[i]!]!);
    }
    for (const action of actions) this.byAction[action]?.retain(keep);
    for (const user of users) this.byUser[user]?.retain(keep);
  }

  remap(mapping: Int32Array): void {
    this.order.remap(mapping);
    for (const list of this.byAction) list.remap(mapping);
    for (const list of this.byUser) list.remap(mapping);
  }

  private insertGrouped(lists: SortedRowList[], keys: Uint32Array, rows: readonly number[]): void {
    const groups = new Map<number, number[]>();
    for (const row of rows) {
      const key = keys[row]!;
      const group = groups.get(key);
      if (group) group.push(row);
      else groups.set(key, [row]);
    }
    for (const [key, group] of groups) this.postingFor(lists, key).insertMany(Uint32Array.from(group));
  }

  private postingFor(lists: SortedRowList[], key: number): SortedRowList {
    let list = lists[key];
    if (!list) {
      for (let i = lists.length; i < key; i++) lists[i] ??= new SortedRowList(this.columns);
      list = new SortedRowList(this.columns);
      lists[key] = list;
    }
    return list;
  }
}
