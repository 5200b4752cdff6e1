import type { AuditStore } from '../../core/audit/audit-entry.js';
import { HOURLY_RANGE_MAX_MS } from '../../core/audit/audit-timeline.js';
import {
  AUDIT_TIMELINE_INTERVALS,
  AUDIT_TIMELINE_SPLITS,
  AuditTimelineSchema,
  type AuditTimelineInterval,
  type AuditTimelineSplit,
} from '../../core/contracts/audit-timeline-schemas.js';
import type { AuditLogFilterParameters } from '../../core/contracts/query-parameters.js';
import { validationProblem } from '../../core/http/problem.js';
import { enumParam, type QuerySpecOf } from '../../core/http/query-params.js';
import { defineRoute, type AnyRoute } from '../http/route.js';
import { AUDIT_FILTER_QUERY, toAuditFilter } from './audit-query-spec.js';

const AUDIT_LOG_TAG = 'AuditLog';

export interface AuditTimelineParameters extends AuditLogFilterParameters {
  splitBy?: AuditTimelineSplit;
  interval?: AuditTimelineInterval;
}

const TIMELINE_QUERY = {
  splitBy: enumParam({
    description: 'Count per action (the default) or per user.',
    values: AUDIT_TIMELINE_SPLITS,
  }),
  interval: enumParam({
    description:
      'Buckets of an hour or a day. When absent: per hour for a range with a start at most two days before its end (or now), per day otherwise. Per hour needs a start at most seven days before the end.',
    values: AUDIT_TIMELINE_INTERVALS,
  }),
  ...AUDIT_FILTER_QUERY,
} satisfies QuerySpecOf<AuditTimelineParameters>;

/** `GET /api/v1/audit-log/timeline`: the list's filters, counted per hour or day. */
export function auditTimelineRoute(store: AuditStore): AnyRoute {
  return defineRoute({
    method: 'GET',
    path: '/api/v1/audit-log/timeline',
    activity: 'AuditLog.View',
    tag: AUDIT_LOG_TAG,
    operationId: 'getAuditLogTimeline',
    summary: 'Matching entries per hour or day, by action or user',
    description:
      'The same filters and tenant as the list, counted per hour or per day (UTC) and split by action or user: the busiest seven names as series of their own and the rest as `Other` (eight names or fewer are all shown). Per-day counts come from the daily counts the store keeps, so a timeline of a large trail reads only its partial first and last days.',
    query: TIMELINE_QUERY,
    responses: [{ status: 200, description: 'The timeline.', schema: AuditTimelineSchema }],
    async handler({ query }) {
      const filter = toAuditFilter(query);
      if (query.interval === 'hour') {
        const endMs = filter.endMs ?? Date.now();
        if (filter.startMs === undefined || endMs - filter.startMs > HOURLY_RANGE_MAX_MS) {
          throw validationProblem({
            interval: ['Per hour needs a startDateTimeUtc at most seven days before the end (or now).'],
          });
        }
      }
      const timeline = await store.timeline(filter, {
        splitBy: query.splitBy ?? 'action',
        ...(query.interval ? { interval: query.interval } : {}),
      });
      return { body: timeline };
    },
  });
}
