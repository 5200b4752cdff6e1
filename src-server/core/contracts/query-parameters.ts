import type { AuditExportFormat } from './audit-schemas.js';
import type { MonitoringOutcome, SummaryInterval } from './monitoring-schemas.js';

/*
 * Query parameters of the management API, by their names on the wire. The server's query specs are checked
 * against these (`satisfies QuerySpecOf<…>`), so a renamed or added parameter shows in the console's typecheck.
 */

/**
 * Query parameters of the list and the export: date-times ISO 8601 (UTC without an offset), names matched
 * exactly and case-insensitively.
 */
export interface AuditLogFilterParameters {
  /** A tenant's name, or `*` for every tenant; Gatehouse's own trail when absent. */
  tenant?: string;
  startDateTimeUtc?: string;
  endDateTimeUtc?: string;
  actionName?: string;
  userName?: string;
  /** The instance that recorded the entries, exactly. */
  instance?: string;
  /** `{type}:{id}` of a resource the entries name, e.g. `Api:5d0c…`; type and id exactly. */
  resource?: string;
  /** Words the parameters' values hold, each as the start of a word. */
  search?: string;
}

/** Query parameters of `GET /api/v1/audit-log`. */
export interface AuditLogListParameters extends AuditLogFilterParameters {
  PageNumber?: number;
  PageSize?: number;
  /** The `continuationToken` of the previous page: the page after it, however many entries arrived since. */
  continuationToken?: string;
}

/** Query parameters of `GET /api/v1/audit-log/export`. */
export interface AuditLogExportParameters extends AuditLogFilterParameters {
  format?: AuditExportFormat;
}

/** Query parameters of the list and the summary (the API's own names). */
export interface MonitoringFilterParameters {
  startDateTimeUtc?: string;
  endDateTimeUtc?: string;
  apiId?: string;
  operation?: string;
  /** A code (`404`) or a class (`4xx`). */
  status?: string;
  method?: string;
  minDurationMs?: number;
  /** Path prefix, case-sensitive. */
  path?: string;
  agentGroupId?: string;
  outcome?: MonitoringOutcome;
  /** The instance whose gateway served the requests, exactly. */
  instance?: string;
  /** `true`: only what an All operations entry served (matched operation or not); `false`: only the others. */
  viaAllOperations?: 'true' | 'false';
}

/** Query parameters of `GET /api/v1/monitoring/requests`. */
export interface MonitoringListParameters extends MonitoringFilterParameters {
  PageNumber?: number;
  PageSize?: number;
}

/** Query parameters of `GET /api/v1/monitoring/summary`. */
export interface MonitoringSummaryParameters extends MonitoringFilterParameters {
  interval?: SummaryInterval | 'auto';
}
