import type { AuditAgentGroup, AuditEntry, AuditResource } from '../audit-entry.js';
import type { LogPosition, RecordLocation } from '../../storage/index.js';
import { FRAME_HEADER_BYTES } from '../../storage/index.js';
import type { ContentHash } from '../content-hash.js';
import { ContentHashTable } from './content-hash-table.js';
import { CaseInsensitiveInterner, KeyedInterner, resourceKey } from './interners.js';
import { ListIndex } from './list-index.js';
import {
  CATEGORY_CODES,
  CATEGORY_CONFIGURATION,
  NO_AGENT_GROUP,
  RowColumns,
  type RowFields,
} from './row-columns.js';

/** Entry fields the index needs, before the record has a location in the log. */
export type PendingRow = RowFields;

/** The whole in-memory state of the store: rows, lists, interned names and log bookkeeping. */
export class AuditIndex {
  readonly columns: RowColumns;
  readonly lists: ListIndex;
  actions = new CaseInsensitiveInterner();
  users = new CaseInsensitiveInterner();
  agentGroups = new KeyedInterner<AuditAgentGroup>((group) => group.id);
  resources = new KeyedInterner<AuditResource>(resourceKey);
  /** Per segment: how many ids its tombstone records list (to know when they are worth compacting). */
  tombstoneIdCounts = new Map<number, number>();
  /** Next id to hand out; ids of appends still being written are below it. */
  nextId = 1;
  /** Highest id of an entry record applied to the index (0 when none). */
  highestAppliedId = 0;
  /** Every record before this position is reflected in the index. */
  covered: LogPosition = { segment: 0, offset: 0 };
  liveCount = 0;
  /** Bumped on every change a snapshot would capture. */
  version = 0;
  private hashTable: ContentHashTable | undefined;

  constructor(columns = new RowColumns()) {
    this.columns = columns;
    this.lists = new ListIndex(columns);
  }

  allocateId(): number {
    if (this.nextId > 0xffffffff) throw new Error('The audit store ran out of 32-bit entry ids');
    return this.nextId++;
  }

  pendingRow(entry: AuditEntry, timeMs: number, hash: ContentHash): PendingRow {
    const resources: number[] = [];
    if (CATEGORY_CODES[entry.category] === CATEGORY_CONFIGURATION) {
      for (const resource of entry.resources) resources.push(this.resources.intern(resource));
    }
    return {
      id: entry.id,
      timeMs,
      action: this.actions.intern(entry.actionName),
      user: this.users.intern(entry.userName),
      category: CATEGORY_CODES[entry.category],
      agentGroup: entry.agentGroup ? this.agentGroups.intern(entry.agentGroup) + 1 : NO_AGENT_GROUP,
      hashHi: hash.hi,
      hashLo: hash.lo,
      resources,
    };
  }

  /** Adds the row of a committed entry record. With `listNow` false the caller adds it to the lists later. */
  addRow(pending: PendingRow, location: RecordLocation, listNow: boolean): number {
    const row = this.columns.add(pending, location);
    if (pending.id > this.highestAppliedId) this.highestAppliedId = pending.id;
    if (pending.id >= this.nextId) this.nextId = pending.id + 1;
    this.liveCount++;
    this.hashTable?.add(row);
    if (listNow) this.lists.insert(row);
    this.advanceCovered(location);
    return row;
  }

  /** Marks the listed entries dead (those still live); returns their rows. Lists are left to the caller. */
  markRemoved(ids: ArrayLike<number>, location: RecordLocation): number[] {
    const { live, tombstoneSegments } = this.columns;
    const rows: number[] = [];
    for (let i = 0; i < ids.length; i++) {
      const row = this.columns.findRow(ids[i]!);
      if (row < 0 || !live[row]) continue;
      live[row] = 0;
      tombstoneSegments[row] = location.segment;
      rows.push(row);
    }
    this.liveCount -= rows.length;
    this.tombstoneIdCounts.set(
      location.segment,
      (this.tombstoneIdCounts.get(location.segment) ?? 0) + ids.length,
    );
    this.advanceCovered(location);
    return rows;
  }

  advanceCovered(location: RecordLocation): void {
    this.covered = {
      segment: location.segment,
      offset: location.offset + FRAME_HEADER_BYTES + location.size,
    };
    this.version++;
  }

  /** Drops rows whose records compaction removed; renumbers everything that refers to rows. */
  purge(keep: (row: number) => boolean): void {
    const mapping = this.columns.purge(keep);
    this.lists.remap(mapping);
    this.hashTable = undefined;
    this.version++;
  }

  /** The duplicate detector, built on first use (only imports need it). */
  contentTable(): ContentHashTable {
    this.hashTable ??= ContentHashTable.build(this.columns);
    return this.hashTable;
  }

  location(row: number): RecordLocation {
    const { segments, offsets, sizes } = this.columns;
    return { segment: segments[row]!, offset: offsets[row]!, size: sizes[row]! };
  }

  facets(): { actionNames: string[]; userNames: string[] } {
    const present = (interner: CaseInsensitiveInterner, lists: ListIndex['byAction']): string[] =>
      interner.displayNames.filter((_, id) => (lists[id]?.length ?? 0) > 0).sort(compareNames);
    return {
      actionNames: present(this.actions, this.lists.byAction),
      userNames: present(this.users, this.lists.byUser),
    };
  }
}

function compareNames(a: string, b: string): number {
  const lowerA = a.toLowerCase();
  const lowerB = b.toLowerCase();
  if (lowerA !== lowerB) return lowerA < lowerB ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
