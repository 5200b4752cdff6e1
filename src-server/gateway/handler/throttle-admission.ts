import { ErrorCode } from '../../core/contracts/error-codes.js';
import type { Exchange } from '../exchange/exchange.js';
import type { ThrottlePeriod } from '../policies/throttle.js';
import type { ThrottleVerdict } from '../throttle/throttle-store.js';

/**
 * Whether the throttle lets the request on; a refusal is answered here. A verdict the failure mode gave (the
 * shared store could not count) is noted in the monitoring record.
 */
export function admitted(
  exchange: Exchange,
  verdict: ThrottleVerdict,
  throttle: { limit: number; per: ThrottlePeriod },
): boolean {
  if (verdict.fallback === 'refused') {
    exchange.fail('throttled', 'rate-limit store unavailable (RateLimiting:FailureMode=closed)');
    exchange.sendProblem(
      ErrorCode.GH_ERR_RATE_LIMIT_UNAVAILABLE,
      'The rate limit of this endpoint cannot be checked right now.',
      [['Retry-After', '1']],
    );
    return false;
  }
  const counted =
    verdict.fallback === 'counted-locally' ? ' (counted in this process: rate-limit store unavailable)' : '';
  if (verdict.allowed) {
    if (counted) exchange.reason = `rate limit${counted}`;
    return true;
  }
  exchange.fail('throttled', `over ${throttle.limit} requests per ${throttle.per}${counted}`);
  exchange.sendProblem(
    ErrorCode.GH_ERR_THROTTLED,
    `The limit of ${throttle.limit} requests per ${throttle.per} is reached.`,
    [['Retry-After', String(verdict.retryAfterSeconds)]],
  );
  return false;
}
