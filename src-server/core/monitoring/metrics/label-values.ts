import { MONITORING_OUTCOMES } from '../monitoring-record.js';

const STANDARD_METHODS = new Set([
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'DELETE',
  'PATCH',
  'OPTIONS',
  'TRACE',
  'CONNECT',
]);
const OUTCOMES = new Set<string>(MONITORING_OUTCOMES);
export const OTHER = 'other';
export const NO_API = 'none';

const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'];

/** `2xx` for 200–299 …; `other` for anything outside 100–599 (e.g. 0 when no response was sent). */
export function statusClassLabel(status: number): string {
  return status >= 100 && status <= 599 ? STATUS_CLASSES[Math.floor(status / 100) - 1]! : OTHER;
}

export function methodLabel(method: string): string {
  return STANDARD_METHODS.has(method) ? method : OTHER.toUpperCase();
}

export function outcomeLabel(outcome: string): string {
  return OUTCOMES.has(outcome) ? outcome : OTHER;
}

/**
 * Keeps a label's distinct values bounded: the first `limit` values pass, later new ones become `other`.
 * Ids come from the configuration, so the limit is a safety net against a runaway series count, not a
 * normal path.
 */
export class BoundedLabel {
  private readonly seen = new Set<string>();
  /** The value asked for last: requests in a row mostly have the same. */
  private last: string | undefined;

  constructor(private readonly limit: number) {}

  value(raw: string): string {
    if (raw === this.last) return raw;
    if (this.seen.has(raw)) {
      this.last = raw;
      return raw;
    }
    if (this.seen.size >= this.limit) return OTHER;
    this.seen.add(raw);
    return raw;
  }
}
