import type { AuditLogFilter, AuditTimeline, AuditTimelineSplit } from '../../../api/types.js';

export const SPLIT_LABEL: Record<AuditTimelineSplit, string> = { action: 'By action', user: 'By user' };

/** A bucket's start in UTC, as precise as its interval needs. */
export function timelineLabel(iso: string, interval: AuditTimeline['interval']): string {
  return interval === 'day' ? iso.slice(0, 10) : `${iso.slice(5, 10)} ${iso.slice(11, 16)}`;
}

/**
 * The filter narrowed to one bucket: the bucket's hour or day, cut to the filter's own range where the bucket
 * reaches past it (the first and last buckets of a range may be partial).
 */
export function narrowedTo(filter: AuditLogFilter, bucket: { start: string; end: string }): AuditLogFilter {
  const start =
    filter.startDateTimeUtc && Date.parse(filter.startDateTimeUtc) > Date.parse(bucket.start)
      ? filter.startDateTimeUtc
      : bucket.start;
  const end =
    filter.endDateTimeUtc && Date.parse(filter.endDateTimeUtc) < Date.parse(bucket.end)
      ? filter.endDateTimeUtc
      : bucket.end;
  return { ...filter, startDateTimeUtc: start, endDateTimeUtc: end };
}

/** About a dozen axis ticks, whatever the number of buckets. */
export function everyNthTick(bucketCount: number): (value: unknown, index: number) => boolean {
  const step = Math.max(1, Math.ceil(bucketCount / 12));
  return (_value, index) => index % step === 0;
}

/** "123 entries, per day: Api.Create 40, …" — what the chart shows, in a sentence. */
export function timelineSummary(timeline: AuditTimeline): string {
  const per = timeline.interval === 'day' ? 'per day' : 'per hour';
  if (timeline.total === 0) return `No entries match the filter (${per}).`;
  const first = timeline.buckets[0];
  const last = timeline.buckets.at(-1);
  const span = first && last ? ` from ${first.start.slice(0, 16)} to ${last.end.slice(0, 16)} UTC` : '';
  const names = timeline.series.map((series) => `${series.name} ${series.total}`).join(', ');
  return `${timeline.total} ${timeline.total === 1 ? 'entry' : 'entries'} ${per}${span}: ${names}.`;
}
