import {
  enumParam,
  intParam,
  stringParam,
  type QueryParamSpec,
  type QuerySpecOf,
  type QueryValues,
} from '../../core/http/query-params.js';
import { timeRangeQuery, toTimeRange } from '../../core/http/time-range-query.js';
import { MONITORING_OUTCOMES } from '../../core/contracts/monitoring-schemas.js';
import type {
  MonitoringFilterParameters,
  MonitoringListParameters,
} from '../../core/contracts/query-parameters.js';
import type {
  MonitoringFilter,
  MonitoringQuery,
  StatusFilter,
} from '../../core/monitoring/monitoring-store.js';
import { FIELD_LIMITS } from '../../core/monitoring/normalize-record.js';

export const MONITORING_PAGE_SIZE_DEFAULT = 50;
export const MONITORING_PAGE_SIZE_MAX = 500;
const MAX_DURATION_FILTER_MS = 86_400_000;
/** An HTTP method token (RFC 9110). */
const METHOD_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function statusParam(): QueryParamSpec<StatusFilter> {
  return {
    description: 'An exact status code (`404`) or a class (`4xx`).',
    schema: { type: 'string', pattern: '^([1-5][0-9]{2}|[1-5][xX]{2})$' },
    parse(raw) {
      const value = raw.trim();
      if (/^[1-5][xX]{2}$/.test(value)) {
        return { ok: true, value: { classOf: Number(value[0]) as 1 | 2 | 3 | 4 | 5 } };
      }
      if (/^[1-5]\d{2}$/.test(value)) return { ok: true, value: { code: Number(value) } };
      return {
        ok: false,
        message: 'The value must be a status code from 100 to 599 or a class such as 4xx.',
      };
    },
  };
}

function durationParam(): QueryParamSpec<number> {
  return {
    description: 'Only requests that took at least this many milliseconds (decimals allowed).',
    schema: { type: 'number', minimum: 0, maximum: MAX_DURATION_FILTER_MS },
    parse(raw) {
      const value = raw.trim();
      if (!/^\d{1,9}(\.\d{1,6})?$/.test(value) || Number(value) > MAX_DURATION_FILTER_MS) {
        return {
          ok: false,
          message: `The value must be a number of milliseconds from 0 to ${MAX_DURATION_FILTER_MS}.`,
        };
      }
      return { ok: true, value: Number(value) };
    },
  };
}

/** Filters shared by the list and the summary. */
export const MONITORING_FILTER_QUERY = {
  ...timeRangeQuery('request arrival'),
  apiId: stringParam({
    description: 'Only requests of this API; exact match.',
    maxLength: FIELD_LIMITS.apiId,
  }),
  operation: stringParam({
    description:
      'Only requests handled by this operation, exactly as recorded (`GET /orders/{id}`, or `*`: All operations served a request that matched no operation; see `viaAllOperations` for everything it served).',
    maxLength: FIELD_LIMITS.operation,
  }),
  status: statusParam(),
  method: stringParam({
    description: 'Only requests with this HTTP method; case-insensitive.',
    maxLength: FIELD_LIMITS.method,
    pattern: METHOD_TOKEN,
  }),
  minDurationMs: durationParam(),
  path: stringParam({
    description:
      'Only requests whose path (as received, without query string) starts with this, such as `/orders/`; case-sensitive.',
    maxLength: FIELD_LIMITS.path,
    pattern: /^\//,
  }),
  agentGroupId: stringParam({
    description: 'Only requests received by this agent group; exact match.',
    maxLength: FIELD_LIMITS.agentGroupId,
  }),
  outcome: enumParam({
    description: 'Only requests with this outcome.',
    values: MONITORING_OUTCOMES,
  }),
  instance: stringParam({
    description:
      'Only requests served by this Gatehouse instance (`Instance:Id`, see `GET /api/v1/instances`); exact match.',
    maxLength: FIELD_LIMITS.instance,
  }),
  viaAllOperations: enumParam({
    description:
      '`true`: only requests an All operations entry served, whether or not they matched an operation of the document (`operation` is then that operation, or `*`); `false`: only the others.',
    values: ['true', 'false'] as const,
  }),
} satisfies QuerySpecOf<MonitoringFilterParameters>;

export const MONITORING_LIST_QUERY = {
  PageNumber: intParam({ description: 'Page number, 1-based.', min: 1, max: 2_147_483_647, defaultValue: 1 }),
  PageSize: intParam({
    description: `Records per page (maximum ${MONITORING_PAGE_SIZE_MAX}).`,
    min: 1,
    max: MONITORING_PAGE_SIZE_MAX,
    defaultValue: MONITORING_PAGE_SIZE_DEFAULT,
  }),
  ...MONITORING_FILTER_QUERY,
} satisfies QuerySpecOf<MonitoringListParameters>;

type FilterValues = QueryValues<typeof MONITORING_FILTER_QUERY>;

export function toMonitoringFilter(values: FilterValues): MonitoringFilter {
  const filter: MonitoringFilter = toTimeRange(values);
  if (values.apiId !== undefined) filter.apiId = values.apiId;
  if (values.operation !== undefined) filter.operation = values.operation;
  if (values.status !== undefined) filter.status = values.status;
  if (values.method !== undefined) filter.method = values.method;
  if (values.minDurationMs !== undefined) filter.minDurationMs = values.minDurationMs;
  if (values.path !== undefined) filter.pathPrefix = values.path;
  if (values.agentGroupId !== undefined) filter.agentGroupId = values.agentGroupId;
  if (values.outcome !== undefined) filter.outcome = values.outcome;
  if (values.instance !== undefined) filter.instance = values.instance;
  if (values.viaAllOperations !== undefined) filter.viaAllOperations = values.viaAllOperations === 'true';
  return filter;
}

export function toMonitoringQuery(values: QueryValues<typeof MONITORING_LIST_QUERY>): MonitoringQuery {
  return {
    ...toMonitoringFilter(values),
    pageNumber: values.PageNumber ?? 1,
    pageSize: values.PageSize ?? MONITORING_PAGE_SIZE_DEFAULT,
  };
}
