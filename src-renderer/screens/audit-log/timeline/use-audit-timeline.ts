import { auditLogApi } from '../../../api/endpoints.js';
import type { AuditLogFilter, AuditTimeline, AuditTimelineSplit } from '../../../api/types.js';
import { useApiQuery, type ApiQuery } from '../../../hooks/use-api-query.js';

/** The timeline of the filter in the URL (every filter and the tenant), asked for again when either changes. */
export function useAuditTimeline(
  filter: AuditLogFilter | null,
  splitBy: AuditTimelineSplit,
): ApiQuery<AuditTimeline> {
  const key = filter ? `audit-timeline ${splitBy} ${JSON.stringify(filter)}` : null;
  return useApiQuery(key, (client, signal) =>
    auditLogApi.timeline(client, { ...filter, splitBy }, { signal }),
  );
}
