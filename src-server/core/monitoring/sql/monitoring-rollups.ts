import type { Database, Tx } from '../../storage/database.js';
import type { MonitoringRollupTable } from '../../storage/schema.js';
import { DAY_MS, HOUR_MS } from '../../storage/time-buckets.js';
import { durationBin } from '../duration-bins.js';
import { statusClassOf } from '../summary-accumulator.js';
import type { RollupSelection } from './monitoring-filter.js';

export const FIVE_MINUTES_MS = 300_000;
/**
 * Granularities, and the dimensions kept at each: per API only hourly (there are many APIs). The daily level
 * serves long ranges (a 60-day summary reads 62 days instead of 1,440 hours); its dimensions are a subset of the
 * hourly level's, so a day can always be summed again from its hours (`rebuildDays`) after retention or a
 * restore changed some of them.
 */
export const ROLLUP_LEVELS = [
  { granularity: FIVE_MINUTES_MS, dimensions: ['', 'agentGroup'] },
  { granularity: HOUR_MS, dimensions: ['', 'api', 'agentGroup'] },
  { granularity: DAY_MS, dimensions: ['', 'agentGroup'] },
] as const;

type RollupLevel = (typeof ROLLUP_LEVELS)[number];
/** The levels counted from records of one hour: the daily level is summed from hours instead. */
export const SUB_DAY_LEVELS: readonly RollupLevel[] = ROLLUP_LEVELS.filter(
  (level) => level.granularity < DAY_MS,
);

interface Rollup {
  granularity: number;
  dimension: string;
  value: string;
  bucket: number;
  statusClass: number;
  n: number;
  sum: number;
  min: number;
  max: number;
  /** This batch's counts by bin. */
  bins: Map<number, number>;
  /** The stored row's bins (encoded), merged with `bins` when the row is written back. */
  storedBins: Uint8Array | undefined;
}

/** What one record adds to the roll-ups. */
export interface RolledRecord {
  timeMs: number;
  status: number;
  durationMs: number;
  apiId?: string;
  agentGroupId: string;
}

/**
 * Roll-up changes of one batch of records, merged into the stored roll-ups in the batch's transaction. The merge
 * reads, adds and writes back; on PostgreSQL, writers of several instances take turns (a transaction lock), so
 * none overwrites another's sums.
 */
export class RollupDeltas {
  private readonly rollups = new Map<string, Rollup>();
  /**
   * The roll-ups a record goes to, by what decides them: its bucket at the finest granularity (every other
   * granularity is a multiple of it, so that bucket fixes theirs), its status class, API and agent group. A batch
   * has few of these, and one key per record is cheaper than one per roll-up it goes to.
   */
  private readonly targetsByKey = new Map<string, Rollup[]>();
  private readonly finest: number;
  /** The roll-ups the last record went to: the next one usually goes to the same (same buckets, API, status). */
  private last: { record: RolledRecord; statusClass: number; targets: Rollup[] } | undefined;

  constructor(private readonly levels: readonly RollupLevel[] = ROLLUP_LEVELS) {
    this.finest = Math.min(...levels.map((level) => level.granularity));
  }

  add(record: RolledRecord): void {
    const statusClass = statusClassOf(record.status);
    const bin = durationBin(record.durationMs);
    const targets = this.targetsOf(record, statusClass);
    for (const rollup of targets) {
      rollup.n++;
      rollup.sum += record.durationMs;
      if (record.durationMs < rollup.min) rollup.min = record.durationMs;
      if (record.durationMs > rollup.max) rollup.max = record.durationMs;
      rollup.bins.set(bin, (rollup.bins.get(bin) ?? 0) + 1);
    }
  }

  private targetsOf(record: RolledRecord, statusClass: number): Rollup[] {
    const last = this.last;
    if (
      last !== undefined &&
      last.statusClass === statusClass &&
      last.record.apiId === record.apiId &&
      last.record.agentGroupId === record.agentGroupId &&
      sameBuckets(this.levels, last.record.timeMs, record.timeMs)
    ) {
      return last.targets;
    }
    const finestBucket = Math.floor(record.timeMs / this.finest);
    const key = `${finestBucket}\u0000${statusClass}\u0000${record.agentGroupId}\u0000${record.apiId ?? ''}\u0000${record.apiId === undefined ? 0 : 1}`;
    let targets = this.targetsByKey.get(key);
    if (!targets) {
      targets = this.rollupsOf(record, statusClass);
      this.targetsByKey.set(key, targets);
    }
    this.last = { record, statusClass, targets };
    return targets;
  }

  private rollupsOf(record: RolledRecord, statusClass: number): Rollup[] {
    const targets: Rollup[] = [];
    for (const { granularity, dimensions } of this.levels) {
      const bucket = Math.floor(record.timeMs / granularity) * granularity;
      for (const dimension of dimensions) {
        const value = dimension === '' ? '' : dimension === 'api' ? record.apiId : record.agentGroupId;
        if (value === undefined) continue;
        const key = rollupKey(granularity, dimension, value, bucket, statusClass);
        let rollup = this.rollups.get(key);
        if (!rollup) {
          rollup = emptyRollup(granularity, dimension, value, bucket, statusClass);
          this.rollups.set(key, rollup);
        }
        targets.push(rollup);
      }
    }
    return targets;
  }

  async apply(writer: RollupWriter, trx: Tx): Promise<void> {
    if (this.rollups.size === 0) return;
    await writer.lockExclusively(trx, 'monitoring_rollups');
    for (const { granularity } of this.levels) {
      const mine = [...this.rollups.values()].filter((rollup) => rollup.granularity === granularity);
      if (mine.length === 0) continue;
      const stored =
        writer.kind === 'sqlite' ? await storedOneByOne(writer, trx, mine) : await storedAtOnce(trx, mine);
      for (const row of stored) {
        const rollup = this.rollups.get(
          rollupKey(granularity, row.dimension, row.dimension_value, row.bucket_ms, row.status_class),
        );
        if (rollup) mergeStored(rollup, row);
      }
      await writer.upsert(trx, 'monitoring_rollups', ROLLUP_KEY_COLUMNS, mine.map(toRow));
    }
  }
}

/** What merges roll-ups: the Database, or the monitoring writer thread's connection. */
export type RollupWriter = Pick<Database, 'kind' | 'lockExclusively' | 'runCompiled' | 'upsert'>;

const ROLLUP_KEY_COLUMNS = ['granularity_ms', 'dimension', 'dimension_value', 'bucket_ms', 'status_class'];

/**
 * The stored rows of one granularity's `rollups` (and maybe other buckets of theirs, which the caller leaves out):
 * one statement per dimension value over its buckets. On SQLite a statement costs no round trip, and this one has
 * one shape, compiled once; one query for all the values was built anew for every batch and cost the monitoring
 * writer thread more to build than to run.
 */
async function storedOneByOne(
  writer: RollupWriter,
  trx: Tx,
  rollups: readonly Rollup[],
): Promise<MonitoringRollupTable[]> {
  const ranges = new Map<string, { dimension: string; value: string; first: number; last: number }>();
  for (const { dimension, value, bucket } of rollups) {
    const key = `${dimension}\u0000${value}`;
    const range = ranges.get(key);
    if (!range) ranges.set(key, { dimension, value, first: bucket, last: bucket });
    else {
      range.first = Math.min(range.first, bucket);
      range.last = Math.max(range.last, bucket);
    }
  }
  const granularity = rollups[0]!.granularity;
  const stored: MonitoringRollupTable[] = [];
  for (const { dimension, value, first, last } of ranges.values()) {
    const rows = await writer.runCompiled(
      trx,
      'monitoringRollupsOfValue',
      () =>
        trx
          .selectFrom('monitoring_rollups')
          .selectAll()
          .where('granularity_ms', '=', granularity)
          .where('dimension', '=', dimension)
          .where('dimension_value', '=', value)
          .where('bucket_ms', '>=', first)
          .where('bucket_ms', '<=', last),
      [granularity, dimension, value, first, last],
    );
    for (const row of rows) stored.push(row);
  }
  return stored;
}

/** The same in one query: on PostgreSQL, one round trip for all the dimension values. */
function storedAtOnce(trx: Tx, rollups: readonly Rollup[]): Promise<MonitoringRollupTable[]> {
  const buckets = rollups.map((rollup) => rollup.bucket);
  // Only the roll-ups this batch touches: per dimension, the values it holds.
  const values = new Map<string, Set<string>>();
  for (const rollup of rollups) {
    let set = values.get(rollup.dimension);
    if (!set) values.set(rollup.dimension, (set = new Set()));
    set.add(rollup.value);
  }
  return trx
    .selectFrom('monitoring_rollups')
    .selectAll()
    .where('granularity_ms', '=', rollups[0]!.granularity)
    .where('bucket_ms', '>=', Math.min(...buckets))
    .where('bucket_ms', '<=', Math.max(...buckets))
    .where((eb) =>
      eb.or(
        [...values].map(([dimension, set]) =>
          eb.and([eb('dimension', '=', dimension), eb('dimension_value', 'in', [...set])]),
        ),
      ),
    )
    .execute();
}

/** Whether two times fall in the same bucket of every granularity. */
function sameBuckets(levels: readonly RollupLevel[], a: number, b: number): boolean {
  for (const { granularity } of levels) {
    if (Math.floor(a / granularity) !== Math.floor(b / granularity)) return false;
  }
  return true;
}

function rollupKey(
  granularity: number,
  dimension: string,
  value: string,
  bucket: number,
  statusClass: number,
): string {
  return `${granularity}\u0000${dimension}\u0000${value}\u0000${bucket}\u0000${statusClass}`;
}

function emptyRollup(
  granularity: number,
  dimension: string,
  value: string,
  bucket: number,
  statusClass: number,
): Rollup {
  return {
    granularity,
    dimension,
    value,
    bucket,
    statusClass,
    n: 0,
    sum: 0,
    min: Number.POSITIVE_INFINITY,
    max: Number.NEGATIVE_INFINITY,
    bins: new Map(),
    storedBins: undefined,
  };
}

function mergeStored(rollup: Rollup, row: MonitoringRollupTable): void {
  rollup.n += row.n;
  rollup.sum += row.duration_sum;
  rollup.min = Math.min(rollup.min, row.duration_min);
  rollup.max = Math.max(rollup.max, row.duration_max);
  // Kept encoded: a long-lived roll-up holds many bins and a batch adds to a few, so the two sorted lists are merged
  // when the row is written (decoding every stored bin into the Map and sorting them again cost the monitoring
  // writer thread about a fifth of its CPU under gateway load).
  if (rollup.storedBins !== undefined) {
    for (const [bin, count] of decodeBins(rollup.storedBins))
      rollup.bins.set(bin, (rollup.bins.get(bin) ?? 0) + count);
  }
  rollup.storedBins = row.bins;
}

function toRow(rollup: Rollup): MonitoringRollupTable {
  return {
    granularity_ms: rollup.granularity,
    dimension: rollup.dimension,
    dimension_value: rollup.value,
    bucket_ms: rollup.bucket,
    status_class: rollup.statusClass,
    n: rollup.n,
    duration_sum: rollup.sum,
    duration_min: rollup.min,
    duration_max: rollup.max,
    bins: mergeBins(rollup.storedBins, rollup.bins),
  };
}

/** Encoded bins (ascending) plus counts by bin, encoded: one pass over the stored ones. */
export function mergeBins(stored: Uint8Array | undefined, added: Map<number, number>): Buffer {
  if (stored === undefined || stored.byteLength < 6) return encodeBins(added);
  const addedBins = [...added.keys()].sort((a, b) => a - b);
  const from = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength - (stored.byteLength % 6));
  const out = Buffer.allocUnsafe(from.length + addedBins.length * 6);
  let read = 0;
  let write = 0;
  let next = 0;
  while (read < from.length || next < addedBins.length) {
    const storedBin = read < from.length ? from.readUInt16LE(read) : Number.POSITIVE_INFINITY;
    const addedBin = next < addedBins.length ? addedBins[next]! : Number.POSITIVE_INFINITY;
    let bin: number;
    let count: number;
    if (storedBin <= addedBin) {
      bin = storedBin;
      count = from.readUInt32LE(read + 2);
      read += 6;
      if (addedBin === storedBin) count += added.get(addedBins[next++]!)!;
    } else {
      bin = addedBin;
      count = added.get(addedBin)!;
      next++;
    }
    out.writeUInt16LE(bin, write);
    out.writeUInt32LE(count, write + 2);
    write += 6;
  }
  return out.subarray(0, write);
}

/** (bin u16, count u32) pairs, little endian, bins ascending. */
export function encodeBins(bins: Map<number, number>): Buffer {
  const sorted = [...bins].sort((a, b) => a[0] - b[0]);
  const buffer = Buffer.allocUnsafe(sorted.length * 6);
  sorted.forEach(([bin, count], k) => {
    buffer.writeUInt16LE(bin, k * 6);
    buffer.writeUInt32LE(count, k * 6 + 2);
  });
  return buffer;
}

export function* decodeBins(buffer: Uint8Array): Generator<[number, number]> {
  const view = Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  for (let offset = 0; offset + 6 <= view.length; offset += 6) {
    yield [view.readUInt16LE(offset), view.readUInt32LE(offset + 2)];
  }
}

/** Stored roll-ups of one selection, buckets [firstMs, endMs) of a granularity (open bounds allowed). */
export function selectRollups(
  reader: Pick<Tx, 'selectFrom'>,
  granularity: number,
  selection: RollupSelection,
  firstMs: number | undefined,
  endMs: number | undefined,
) {
  return reader
    .selectFrom('monitoring_rollups')
    .where('granularity_ms', '=', granularity)
    .where('dimension', '=', selection.dimension)
    .where('dimension_value', '=', selection.value)
    .$if(selection.statusClass !== undefined, (q) => q.where('status_class', '=', selection.statusClass!))
    .$if(firstMs !== undefined, (q) => q.where('bucket_ms', '>=', firstMs!))
    .$if(endMs !== undefined, (q) => q.where('bucket_ms', '<', endMs!));
}

/** The granularities of roll-ups that can answer buckets of `intervalMs` for a selection, coarsest first. */
export function rollupGranularitiesFor(intervalMs: number, selection: RollupSelection): number[] {
  return [...ROLLUP_LEVELS]
    .reverse()
    .filter(
      ({ granularity, dimensions }) =>
        intervalMs % granularity === 0 && (dimensions as readonly string[]).includes(selection.dimension),
    )
    .map(({ granularity }) => granularity);
}

/**
 * The daily roll-ups of the days in [fromMs, endMs) (whole days), summed again from their hourly roll-ups: after
 * retention removed some hours of a day, or a restore counted some hours again.
 */
export async function rebuildDays(database: Database, trx: Tx, fromMs: number, endMs: number): Promise<void> {
  const first = Math.floor(fromMs / DAY_MS) * DAY_MS;
  const end = Math.ceil(endMs / DAY_MS) * DAY_MS;
  if (end <= first) return;
  const daily = ROLLUP_LEVELS.find((level) => level.granularity === DAY_MS)!;
  await database.lockExclusively(trx, 'monitoring_rollups');
  await trx
    .deleteFrom('monitoring_rollups')
    .where('granularity_ms', '=', DAY_MS)
    .where('bucket_ms', '>=', first)
    .where('bucket_ms', '<', end)
    .execute();
  const hours = await trx
    .selectFrom('monitoring_rollups')
    .selectAll()
    .where('granularity_ms', '=', HOUR_MS)
    .where('dimension', 'in', [...daily.dimensions])
    .where('bucket_ms', '>=', first)
    .where('bucket_ms', '<', end)
    .execute();
  const days = new Map<string, Rollup>();
  for (const hour of hours) {
    const bucket = Math.floor(hour.bucket_ms / DAY_MS) * DAY_MS;
    const key = rollupKey(DAY_MS, hour.dimension, hour.dimension_value, bucket, hour.status_class);
    let day = days.get(key);
    if (!day) {
      day = emptyRollup(DAY_MS, hour.dimension, hour.dimension_value, bucket, hour.status_class);
      days.set(key, day);
    }
    mergeStored(day, hour);
  }
  const rows = [...days.values()].map(toRow);
  for (let start = 0; start < rows.length; start += 500) {
    await trx
      .insertInto('monitoring_rollups')
      .values(rows.slice(start, start + 500))
      .execute();
  }
}
