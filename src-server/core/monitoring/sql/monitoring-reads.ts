import { sql } from 'kysely';
import type { Tx } from '../../storage/database.js';
import { DAY_MS, HOUR_MS, splitRange, type CountedBucket } from '../../storage/time-buckets.js';
import type { MonitoringFilter, MonitoringSummaryData, SummaryRequest } from '../monitoring-store.js';
import { SummaryAccumulator } from '../summary-accumulator.js';
import { filteredRecords, type FilterForm, type RollupSelection } from './monitoring-filter.js';
import { decodeBins, rollupGranularitiesFor, selectRollups } from './monitoring-rollups.js';

type Reader = Pick<Tx, 'selectFrom'>;

/**
 * Matching records per hour, newest first, exact: whole hours from the hourly roll-ups, the partial hours at the
 * ends of the range counted from the records.
 */
export async function countBucketsByHour(
  reader: Reader,
  filter: MonitoringFilter,
  selection: RollupSelection,
): Promise<CountedBucket[]> {
  const { whole, partial } = splitRange(filter.startMs, filter.endMs, HOUR_MS);
  const buckets: CountedBucket[] = [];
  if (whole) {
    const rows = await selectRollups(
      reader,
      HOUR_MS,
      selection,
      whole.first === undefined ? undefined : whole.first * HOUR_MS,
      whole.end === undefined ? undefined : whole.end * HOUR_MS,
    )
      .select(['bucket_ms', sql<number>`sum(n)`.as('n')])
      .groupBy('bucket_ms')
      .execute();
    for (const row of rows) {
      const start = row.bucket_ms;
      buckets.push({ startMs: start, endMs: start + HOUR_MS, count: row.n });
    }
  }
  for (const piece of partial) {
    buckets.push({ ...piece, count: await countRecords(reader, { ...filter, ...piece }) });
  }
  return buckets.sort((a, b) => b.startMs - a.startMs);
}

export async function countRecords(
  reader: Reader,
  filter: MonitoringFilter,
  form?: FilterForm,
): Promise<number> {
  const row = await filteredRecords(reader, filter, form)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return row?.n ?? 0;
}

/**
 * The summary from roll-ups where they can answer (the filter selects everything, one API or one agent group,
 * optionally a status class, and the interval is a multiple of a roll-up's), the records for the rest. The
 * coarsest roll-ups cover the whole buckets of the range; the pieces left at its ends go to the next finer
 * roll-ups, and only what no roll-up covers (under 5 minutes at each end) is read from the records: a 60-day
 * range ending now reads 60 days, 23 hours and 11 five-minute roll-ups, not a day of records.
 */
export async function summarizeRecords(
  reader: Reader,
  request: SummaryRequest,
  selection: RollupSelection | undefined,
): Promise<MonitoringSummaryData> {
  const { filter, intervalMs } = request;
  const summary = new SummaryAccumulator(filter.startMs, filter.endMs, intervalMs);
  if (summary.buckets === 0) return summary.result();
  const granularities = selection ? rollupGranularitiesFor(intervalMs, selection) : [];
  const addPiece = async (piece: { startMs: number; endMs: number }, level: number): Promise<void> => {
    const granularity = granularities[level];
    if (!selection || granularity === undefined) {
      await addRecords(reader, summary, { ...filter, ...piece });
      return;
    }
    const { whole, partial } = splitRange(piece.startMs, piece.endMs, granularity);
    if (whole) {
      const rows = await selectRollups(
        reader,
        granularity,
        selection,
        whole.first! * granularity,
        whole.end! * granularity,
      )
        .select(['bucket_ms', 'status_class', 'n', 'duration_sum', 'duration_min', 'duration_max', 'bins'])
        .execute();
      for (const row of rows) {
        summary.addRollup(row.bucket_ms, row.status_class, {
          n: row.n,
          sum: row.duration_sum,
          min: row.duration_min,
          max: row.duration_max,
          bins: decodeBins(row.bins),
        });
      }
    }
    for (const rest of partial) await addPiece(rest, level + 1);
  };
  await addPiece({ startMs: filter.startMs, endMs: filter.endMs }, 0);
  return summary.result();
}

/** Feeds the matching records to the summary a day at a time (memory stays bounded on long ranges). */
async function addRecords(
  reader: Reader,
  summary: SummaryAccumulator,
  filter: MonitoringFilter & { startMs: number; endMs: number },
): Promise<void> {
  for (let from = filter.startMs; from < filter.endMs; from += DAY_MS) {
    const rows = await filteredRecords(reader, {
      ...filter,
      startMs: from,
      endMs: Math.min(filter.endMs, from + DAY_MS),
    })
      .select(['time_ms', 'status', 'duration_ms'])
      .execute();
    for (const row of rows) summary.addRecord(row.time_ms, row.status, row.duration_ms);
  }
}
