import * as z from 'zod';
import { HttpProblem, notFound, validationProblem } from '../../core/http/problem.js';
import { pagingOf } from '../../core/http/paging.js';
import type { QuerySpecOf } from '../../core/http/query-params.js';
import type { MonitoringSummaryParameters } from '../../core/contracts/query-parameters.js';
import { defineRoute, type AnyRoute } from '../http/route.js';
import type { Monitoring } from '../../core/monitoring/monitoring.js';
import type { MonitoringStore } from '../../core/monitoring/monitoring-store.js';
import {
  MONITORING_FILTER_QUERY,
  MONITORING_LIST_QUERY,
  toMonitoringFilter,
  toMonitoringQuery,
} from './monitoring-query-spec.js';
import {
  MonitoringRecordPageSchema,
  MonitoringRecordSchema,
  MonitoringSummarySchema,
} from '../../core/contracts/monitoring-schemas.js';
import {
  DEFAULT_SUMMARY_RANGE_MS,
  INTERVAL_PARAM,
  resolveInterval,
  SUMMARY_INTERVALS,
} from './summary-interval.js';
import { ErrorCode } from '../../core/contracts/error-codes.js';

export const MONITORING_TAG = 'ApiMonitoring';

const SUMMARY_QUERY = {
  ...MONITORING_FILTER_QUERY,
  interval: INTERVAL_PARAM,
} satisfies QuerySpecOf<MonitoringSummaryParameters>;
const IdParams = z.object({ id: z.string().regex(/^[1-9]\d{0,14}$/, 'The id must be a positive integer.') });

export interface MonitoringRoutesInput {
  monitoring: Pick<Monitoring, 'store'>;
  /** The tenant's clock: the default end of a summary's range. */
  now: () => Date;
}

/** API Monitoring: every request that reached a gateway listener, as a list, one record, and a summary. */
export function monitoringRoutes({ monitoring, now }: MonitoringRoutesInput): AnyRoute[] {
  const openStore = async (): Promise<MonitoringStore> => {
    try {
      return await monitoring.store();
    } catch {
      // Why was logged when the store failed to open (or it is closing); the client gets no internals.
      throw new HttpProblem(
        ErrorCode.GH_ERR_MONITORING_UNAVAILABLE,
        'API monitoring is not available; the server log says why.',
      );
    }
  };
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/monitoring/requests',
      activity: 'Monitoring.View',
      tag: MONITORING_TAG,
      operationId: 'listMonitoringRequests',
      summary: 'List monitored requests',
      description:
        'Every request that reached a gateway listener, passthrough or not (unmatched paths, preflights, refusals, upstream errors and timeouts included). Newest first: request time descending, then id descending. `startDateTimeUtc` is inclusive and `endDateTimeUtc` exclusive; `path` is a case-sensitive prefix; `method` is case-insensitive; `status` takes a code (404) or a class (4xx); other filters match exactly. Parameter names are case-insensitive.',
      query: MONITORING_LIST_QUERY,
      responses: [{ status: 200, description: 'One page of records.', schema: MonitoringRecordPageSchema }],
      problems: [503],
      async handler({ query }) {
        const monitoringQuery = toMonitoringQuery(query);
        const store = await openStore();
        const page = await store.query(monitoringQuery);
        return {
          body: {
            data: page.items,
            paging: pagingOf(monitoringQuery.pageNumber, monitoringQuery.pageSize, page.totalCount),
          },
        };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/monitoring/requests/:id',
      activity: 'Monitoring.View',
      tag: MONITORING_TAG,
      operationId: 'getMonitoringRequest',
      summary: 'Read one monitored request',
      params: IdParams,
      responses: [{ status: 200, description: 'The record.', schema: MonitoringRecordSchema }],
      problems: [404, 503],
      async handler({ params }) {
        const store = await openStore();
        const record = await store.get(Number(params.id));
        if (!record) throw notFound(`No monitoring record has id ${params.id} (it may have expired).`);
        return { body: record };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/monitoring/summary',
      activity: 'Monitoring.View',
      tag: MONITORING_TAG,
      operationId: 'summarizeMonitoringRequests',
      summary: 'Summarise monitored requests over time',
      description:
        'Counts per status class and duration percentiles per time bucket, for the same filters as the list. The range defaults to the last 24 hours ending now. Buckets are aligned to multiples of the interval in UTC (the first may start before `startDateTimeUtc`; it counts only requests inside the range) and empty buckets are included.',
      query: SUMMARY_QUERY,
      responses: [{ status: 200, description: 'The summary.', schema: MonitoringSummarySchema }],
      problems: [503],
      async handler({ query }) {
        const filter = toMonitoringFilter(query);
        const endMs = filter.endMs ?? now().getTime();
        const startMs = filter.startMs ?? endMs - DEFAULT_SUMMARY_RANGE_MS;
        if (startMs > endMs) {
          throw validationProblem({
            startDateTimeUtc: ['startDateTimeUtc must not be after the end of the range (default: now).'],
          });
        }
        const interval = resolveInterval(query.interval, startMs, endMs);
        const store = await openStore();
        const summary = await store.summarize({
          filter: { ...filter, startMs, endMs },
          intervalMs: SUMMARY_INTERVALS[interval],
        });
        return {
          body: {
            interval,
            start: new Date(startMs).toISOString(),
            end: new Date(endMs).toISOString(),
            ...summary,
          },
        };
      },
    }),
  ];
}
