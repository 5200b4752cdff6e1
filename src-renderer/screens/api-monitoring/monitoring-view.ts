import {
  MONITORING_DEFAULT_PAGE_SIZE,
  MONITORING_OUTCOMES,
  MONITORING_PAGE_SIZES,
  type MonitoringFilter,
  type MonitoringOutcome,
  type MonitoringQuery,
} from '../../api/types.js';
import { pagedUrlView, utcInstant, type PagedView } from '../../router/paged-url-view.js';

/** A time range relative to now (moves with every refresh), all time, or fixed UTC bounds. */
export type RangeChoice = '15m' | '1h' | '24h' | '7d' | 'all' | 'custom';
/**
 * The last hour, per minute: a developer testing a proxy sees each burst of requests as its own bar (24 hours
 * per hour squeezed an afternoon of testing into one). Longer ranges are one choice away.
 */
export const DEFAULT_RANGE: RangeChoice = '1h';

export const RANGE_LABEL: Record<RangeChoice, string> = {
  '15m': 'Last 15 minutes',
  '1h': 'Last hour',
  '24h': 'Last 24 hours',
  '7d': 'Last 7 days',
  all: 'All time',
  custom: 'Custom range (UTC)',
};

const RANGE_MS: Partial<Record<RangeChoice, number>> = {
  '15m': 15 * 60_000,
  '1h': 60 * 60_000,
  '24h': 24 * 60 * 60_000,
  '7d': 7 * 24 * 60 * 60_000,
};

/** Text filters, by the API's own parameter names, so a console URL and an API URL read the same. */
export const TEXT_FILTER_KEYS = [
  'apiId',
  'operation',
  'status',
  'method',
  'minDurationMs',
  'path',
  'agentGroupId',
  'outcome',
  'instance',
  /** `true` or `false`: served by an All operations entry or not. */
  'viaAllOperations',
] as const;
export type TextFilterKey = (typeof TEXT_FILTER_KEYS)[number];

/** The filter as the URL keeps it. */
export interface MonitoringViewFilter extends Partial<Record<TextFilterKey, string>> {
  range: RangeChoice;
  /** For the custom range: ISO 8601 UTC. */
  startDateTimeUtc?: string;
  endDateTimeUtc?: string;
}

export type MonitoringView = PagedView<MonitoringViewFilter>;

/** The monitoring screen's view in the URL: page, page size, time range and the text filters. */
export const MONITORING_VIEW = pagedUrlView<MonitoringViewFilter>({
  read(params) {
    const filter: MonitoringViewFilter = { range: DEFAULT_RANGE };
    const start = instantOrUndefined(params.get('startDateTimeUtc'));
    const end = instantOrUndefined(params.get('endDateTimeUtc'));
    const range = params.get('range') as RangeChoice | null;
    if (start || end) {
      filter.range = 'custom';
      if (start) filter.startDateTimeUtc = start;
      if (end) filter.endDateTimeUtc = end;
    } else if (range && range in RANGE_LABEL) {
      // `custom` without bounds is kept while the user picks them.
      filter.range = range;
    }
    for (const key of TEXT_FILTER_KEYS) {
      const value = params.get(key)?.trim();
      if (value) filter[key] = value;
    }
    if (filter.outcome && !(MONITORING_OUTCOMES as readonly string[]).includes(filter.outcome))
      delete filter.outcome;
    if (filter.viaAllOperations !== 'true' && filter.viaAllOperations !== 'false')
      delete filter.viaAllOperations;
    return filter;
  },
  write(filter, params) {
    if (filter.range === 'custom') {
      if (filter.startDateTimeUtc) params.set('startDateTimeUtc', filter.startDateTimeUtc);
      if (filter.endDateTimeUtc) params.set('endDateTimeUtc', filter.endDateTimeUtc);
      if (!filter.startDateTimeUtc && !filter.endDateTimeUtc) params.set('range', 'custom');
    } else if (filter.range !== DEFAULT_RANGE) {
      params.set('range', filter.range);
    }
    for (const key of TEXT_FILTER_KEYS) {
      const value = filter[key];
      if (value) params.set(key, value);
    }
  },
  pageSizes: MONITORING_PAGE_SIZES,
  defaultPageSize: MONITORING_DEFAULT_PAGE_SIZE,
});

function instantOrUndefined(text: string | null): string | undefined {
  return text ? utcInstant(text) : undefined;
}

/** The API filter at this moment: a relative range starts `now - range`. */
export function toApiFilter(filter: MonitoringViewFilter, nowMs: number): MonitoringFilter {
  const api: MonitoringFilter = {};
  const relative = RANGE_MS[filter.range];
  if (relative !== undefined) api.startDateTimeUtc = new Date(nowMs - relative).toISOString();
  if (filter.range === 'custom') {
    if (filter.startDateTimeUtc) api.startDateTimeUtc = filter.startDateTimeUtc;
    if (filter.endDateTimeUtc) api.endDateTimeUtc = filter.endDateTimeUtc;
  }
  if (filter.apiId) api.apiId = filter.apiId;
  if (filter.operation) api.operation = filter.operation;
  if (filter.status) api.status = filter.status;
  if (filter.method) api.method = filter.method;
  if (filter.minDurationMs) api.minDurationMs = Number(filter.minDurationMs);
  if (filter.path) api.path = filter.path;
  if (filter.agentGroupId) api.agentGroupId = filter.agentGroupId;
  if (filter.outcome) api.outcome = filter.outcome as MonitoringOutcome;
  if (filter.instance) api.instance = filter.instance;
  if (filter.viaAllOperations === 'true' || filter.viaAllOperations === 'false')
    api.viaAllOperations = filter.viaAllOperations;
  return api;
}

export function toMonitoringQuery(view: MonitoringView, nowMs: number): MonitoringQuery {
  return { ...toApiFilter(view.filter, nowMs), PageNumber: view.page, PageSize: view.pageSize };
}
