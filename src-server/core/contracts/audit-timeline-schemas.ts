import * as z from 'zod';

export const AUDIT_TIMELINE_SPLITS = ['action', 'user'] as const;
export type AuditTimelineSplit = (typeof AUDIT_TIMELINE_SPLITS)[number];

export const AUDIT_TIMELINE_INTERVALS = ['hour', 'day'] as const;
export type AuditTimelineInterval = (typeof AUDIT_TIMELINE_INTERVALS)[number];

export const AuditTimelineSeriesSchema = z
  .object({
    name: z.string().meta({
      description:
        'The action or user name (as first spelled), or `Other` (with `other: true`): the names past the busiest ones, summed.',
    }),
    other: z.boolean().optional().meta({ description: 'Whether this series is "Other".' }),
    total: z.int().meta({ description: 'Entries of this series in the whole timeline.' }),
  })
  .meta({ id: 'AuditTimelineSeries' });

export const AuditTimelineBucketSchema = z
  .object({
    start: z
      .string()
      .meta({ description: 'Start of the hour or day (UTC), inclusive.', format: 'date-time' }),
    end: z.string().meta({ description: 'End of the hour or day (UTC), exclusive.', format: 'date-time' }),
    total: z.int().meta({ description: 'Matching entries in the bucket.' }),
    counts: z.array(z.int()).meta({ description: 'Entries per series, in the order of `series`.' }),
  })
  .meta({ id: 'AuditTimelineBucket' });

export const AuditTimelineSchema = z
  .object({
    interval: z.enum(AUDIT_TIMELINE_INTERVALS),
    splitBy: z.enum(AUDIT_TIMELINE_SPLITS),
    total: z.int().meta({ description: 'Matching entries in the timeline (the list’s `totalCount`).' }),
    series: z.array(AuditTimelineSeriesSchema),
    buckets: z.array(AuditTimelineBucketSchema).meta({
      description:
        'Oldest first, every hour or day of the range including empty ones (from the first entry when the range has no start).',
    }),
  })
  .meta({ id: 'AuditTimeline' });
export type AuditTimeline = z.output<typeof AuditTimelineSchema>;
