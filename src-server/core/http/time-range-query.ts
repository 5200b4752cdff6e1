import { validationProblem } from './problem.js';
import { dateTimeParam, type QueryParamSpec } from './query-params.js';

/** The query parameters of a time-range filter: `startDateTimeUtc` inclusive, `endDateTimeUtc` exclusive. */
export interface TimeRangeQuery {
  startDateTimeUtc: QueryParamSpec<number>;
  endDateTimeUtc: QueryParamSpec<number>;
}

/** `what` names the instant the range applies to when it is not obvious (e.g. "request arrival"). */
export function timeRangeQuery(what?: string): TimeRangeQuery {
  const iso = 'ISO 8601; a value without an offset is UTC.';
  return {
    startDateTimeUtc: dateTimeParam({
      description: `Start of the time range${what ? ` (${what})` : ''}, inclusive. ${iso}`,
    }),
    endDateTimeUtc: dateTimeParam({ description: `End of the time range, exclusive. ${iso}` }),
  };
}

/** Epoch milliseconds of a parsed range; only the bounds that were given. */
export interface TimeRange {
  startMs?: number;
  endMs?: number;
}

/** Checks the parsed bounds of a time-range query: an end before the start is a 400 naming endDateTimeUtc. */
export function toTimeRange(values: { startDateTimeUtc?: number; endDateTimeUtc?: number }): TimeRange {
  const { startDateTimeUtc: startMs, endDateTimeUtc: endMs } = values;
  if (startMs !== undefined && endMs !== undefined && endMs < startMs) {
    throw validationProblem({ endDateTimeUtc: ['endDateTimeUtc must not be before startDateTimeUtc.'] });
  }
  const range: TimeRange = {};
  if (startMs !== undefined) range.startMs = startMs;
  if (endMs !== undefined) range.endMs = endMs;
  return range;
}
