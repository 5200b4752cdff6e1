import * as z from 'zod';
import { listPageSchema } from './paging-schemas.js';
import { CapturedExchangeSchema } from './monitoring-capture-schemas.js';
import { MONITORING_OUTCOMES } from './constants.js';

export { MONITORING_OUTCOMES };
export type MonitoringOutcome = (typeof MONITORING_OUTCOMES)[number];

/** Bucket widths of a summary. */
export const SUMMARY_INTERVAL_NAMES = ['1m', '5m', '1h', '1d'] as const;
export type SummaryInterval = (typeof SUMMARY_INTERVAL_NAMES)[number];

export const MonitoringRecordSchema = z
  .object({
    id: z.int().meta({ description: 'Increasing sequence number, unique within the tenant.' }),
    time: z.string().meta({ description: 'When the request arrived, ISO 8601 UTC.', format: 'date-time' }),
    agentGroupId: z.string(),
    agentGroupName: z.string(),
    method: z.string(),
    path: z.string().meta({ description: 'The request path as received, without its query string.' }),
    apiId: z.string().optional().meta({ description: 'The API whose base path matched, if any.' }),
    apiName: z.string().optional(),
    operation: z.string().optional().meta({
      description:
        'Operation of the document the request matched (`GET /orders/{id}`), or `*` when All operations served a request that matched no operation.',
    }),
    viaAllOperations: z
      .boolean()
      .optional()
      .meta({ description: 'Present (true) when the All operations entry served the request.' }),
    status: z.int().meta({ description: 'Status code sent to the client (0 when none was sent).' }),
    durationMs: z.number(),
    bytesIn: z.int(),
    bytesOut: z.int(),
    targetUrl: z.string().optional().meta({ description: 'Target URL with secrets masked as `********`.' }),
    outcome: z.enum(MONITORING_OUTCOMES),
    clientIp: z.string(),
    identity: z
      .string()
      .optional()
      .meta({ description: 'Who the policy recognised, e.g. `apiKey:<prefix>`.' }),
    reason: z.string().optional().meta({ description: 'Short reason for a refusal or a failure.' }),
    capture: CapturedExchangeSchema.optional().meta({
      description:
        'Headers and bodies, when the API captures exchanges; only in the answer of `GET /api/v1/monitoring/requests/{id}`.',
    }),
    instance: z.string().optional().meta({
      description:
        'The Gatehouse instance whose gateway served the request (`Instance:Id`), where several share one database.',
    }),
  })
  .meta({ id: 'MonitoringRecord', description: 'One request that reached a gateway listener.' });
export type MonitoringRecord = z.output<typeof MonitoringRecordSchema>;

export const MonitoringRecordPageSchema = listPageSchema(MonitoringRecordSchema).meta({
  id: 'MonitoringRecordPage',
});

const StatusCountsSchema = z
  .object({
    '1xx': z.int(),
    '2xx': z.int(),
    '3xx': z.int(),
    '4xx': z.int(),
    '5xx': z.int(),
    other: z.int().meta({ description: 'Status outside 100–599, e.g. 0 when no response was sent.' }),
  })
  .meta({ id: 'MonitoringStatusCounts' });
export type MonitoringStatusCounts = z.output<typeof StatusCountsSchema>;

const percentiles = {
  p50: z.number().nullable(),
  p95: z.number().nullable(),
  p99: z.number().nullable(),
};

const BucketSchema = z
  .object({
    start: z
      .string()
      .meta({ description: 'The bucket covers [start, start + interval).', format: 'date-time' }),
    count: z.int(),
    status: StatusCountsSchema,
    ...percentiles,
  })
  .meta({ id: 'MonitoringSummaryBucket' });
export type MonitoringSummaryBucket = z.output<typeof BucketSchema>;

export const MonitoringSummarySchema = z
  .object({
    interval: z.enum(SUMMARY_INTERVAL_NAMES),
    start: z
      .string()
      .meta({ description: 'Start of the range summarised (inclusive).', format: 'date-time' }),
    end: z.string().meta({ description: 'End of the range summarised (exclusive).', format: 'date-time' }),
    buckets: z.array(BucketSchema),
    totals: z
      .object({
        count: z.int(),
        status: StatusCountsSchema,
        ...percentiles,
        minDurationMs: z.number().nullable(),
        maxDurationMs: z.number().nullable(),
        averageDurationMs: z.number().nullable(),
      })
      .meta({ id: 'MonitoringSummaryTotals' }),
  })
  .meta({
    id: 'MonitoringSummary',
    description:
      'Counts and duration percentiles (milliseconds) per time bucket. Percentiles are nearest-rank over a log-scale histogram (16 bins per doubling): the reported value is the upper edge of the bin holding the ranked duration, clamped to the observed minimum and maximum, so it overstates the exact value by at most 4.4 %. Null when a bucket is empty.',
  });
export type MonitoringSummary = z.output<typeof MonitoringSummarySchema>;
