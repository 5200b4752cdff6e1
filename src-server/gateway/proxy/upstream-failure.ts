import type { MonitoringOutcome } from '../../core/monitoring/monitoring-record.js';

/** Raised by the gateway itself to end an upstream exchange. */
export class UpstreamTimeoutError extends Error {
  readonly code = 'GATEHOUSE_UPSTREAM_TIMEOUT';
  constructor(readonly phase: 'connect' | 'response') {
    super(`upstream ${phase} timeout`);
  }
}

export class BodyTooLargeError extends Error {
  readonly code = 'GATEHOUSE_BODY_TOO_LARGE';
  constructor(readonly limit: number) {
    super('request body too large');
  }
}

export interface UpstreamFailure {
  status: 400 | 413 | 502 | 504;
  outcome: MonitoringOutcome;
  /** For monitoring: a short category, no internals. */
  reason: string;
  /** For the client. */
  detail: string;
}

const TLS_CODE = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|HOSTNAME/;

/** What the client and monitoring learn of a failed upstream exchange: a category, never the error's text. */
export function classifyUpstreamError(error: unknown): UpstreamFailure {
  if (error instanceof UpstreamTimeoutError) {
    return {
      status: 504,
      outcome: 'timeout',
      reason: `${error.phase} timeout`,
      detail:
        error.phase === 'connect'
          ? 'The target did not accept the connection in time.'
          : 'The target did not respond in time.',
    };
  }
  if (error instanceof BodyTooLargeError) {
    return {
      status: 413,
      outcome: 'payload-too-large',
      reason: 'request body over the limit',
      detail: `The request body is larger than the limit of ${error.limit} bytes.`,
    };
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  const unreachable = (reason: string): UpstreamFailure => ({
    status: 502,
    outcome: 'upstream-error',
    reason,
    detail: 'The target could not be reached.',
  });
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
    case 'EAI_NONAME':
      return unreachable('dns lookup failed');
    case 'ECONNREFUSED':
      return unreachable('connection refused');
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EADDRNOTAVAIL':
      return unreachable('host unreachable');
    case 'ETIMEDOUT':
      return {
        status: 504,
        outcome: 'timeout',
        reason: 'connect timeout',
        detail: 'The target did not accept the connection in time.',
      };
    case 'ECONNRESET':
    case 'EPIPE':
      return { ...unreachable('connection reset'), detail: 'The target closed the connection.' };
    default:
      break;
  }
  if (code.startsWith('HPE_')) {
    return { ...unreachable('invalid response'), detail: 'The target sent an invalid response.' };
  }
  if (TLS_CODE.test(code)) {
    return { ...unreachable('tls failure'), detail: 'The TLS connection to the target failed.' };
  }
  return unreachable('upstream error');
}
