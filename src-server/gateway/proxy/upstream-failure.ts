import { ErrorCode, type HttpErrorCode } from '../../core/contracts/error-codes.js';
import { GatehouseError } from '../../core/errors/gatehouse-error.js';
import type { MonitoringOutcome } from '../../core/monitoring/monitoring-record.js';

/** Raised by the gateway itself to end an upstream exchange. */
export class UpstreamTimeoutError extends GatehouseError {
  override name = 'UpstreamTimeoutError';
  constructor(readonly phase: 'connect' | 'response') {
    super(ErrorCode.GH_ERR_UPSTREAM_TIMEOUT, `upstream ${phase} timeout`);
  }
}

/** Raised by the gateway when the client's request body pauses longer than the listener allows. */
export class RequestBodyTimeoutError extends GatehouseError {
  override name = 'RequestBodyTimeoutError';
  constructor() {
    super(ErrorCode.GH_ERR_REQUEST_BODY_TIMEOUT, 'request body timeout');
  }
}

export class BodyTooLargeError extends GatehouseError {
  override name = 'BodyTooLargeError';
  constructor(readonly limit: number) {
    super(ErrorCode.GH_ERR_PAYLOAD_TOO_LARGE, 'request body too large');
  }
}

export interface UpstreamFailure {
  /** Decides the status. */
  code: HttpErrorCode;
  outcome: MonitoringOutcome;
  /** For monitoring: a short category, no internals. */
  reason: string;
  /** For the client. */
  detail: string;
}

const TLS_CODE = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|HOSTNAME/;

/** What the client and monitoring learn of a failed upstream exchange: a category, never the error's text. */
export function classifyUpstreamError(error: unknown): UpstreamFailure {
  if (error instanceof RequestBodyTimeoutError) {
    return {
      code: ErrorCode.GH_ERR_REQUEST_BODY_TIMEOUT,
      outcome: 'timeout',
      reason: 'request body timeout',
      detail: 'The request body did not arrive in time.',
    };
  }
  if (error instanceof UpstreamTimeoutError) {
    return {
      code: ErrorCode.GH_ERR_UPSTREAM_TIMEOUT,
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
      code: ErrorCode.GH_ERR_PAYLOAD_TOO_LARGE,
      outcome: 'payload-too-large',
      reason: 'request body over the limit',
      detail: `The request body is larger than the limit of ${error.limit} bytes.`,
    };
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  const unreachable = (reason: string): UpstreamFailure => ({
    code: ErrorCode.GH_ERR_UPSTREAM_UNREACHABLE,
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
    case 'UND_ERR_CONNECT_TIMEOUT':
      return {
        code: ErrorCode.GH_ERR_UPSTREAM_TIMEOUT,
        outcome: 'timeout',
        reason: 'connect timeout',
        detail: 'The target did not accept the connection in time.',
      };
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
      return {
        ...unreachable('connection reset'),
        code: ErrorCode.GH_ERR_UPSTREAM_CLOSED,
        detail: 'The target closed the connection.',
      };
    default:
      break;
  }
  if (code.startsWith('HPE_') || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') {
    return {
      ...unreachable('invalid response'),
      code: ErrorCode.GH_ERR_UPSTREAM_INVALID_RESPONSE,
      detail: 'The target sent an invalid response.',
    };
  }
  if (TLS_CODE.test(code)) {
    return {
      ...unreachable('tls failure'),
      code: ErrorCode.GH_ERR_UPSTREAM_TLS,
      detail: 'The TLS connection to the target failed.',
    };
  }
  return unreachable('upstream error');
}
