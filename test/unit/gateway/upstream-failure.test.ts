import { describe, expect, it } from 'vitest';
import { statusOf } from '../../../src-server/core/contracts/error-codes.js';
import {
  BodyTooLargeError,
  classifyUpstreamError,
  UpstreamTimeoutError,
} from '../../../src-server/gateway/proxy/upstream-failure.js';

const nodeError = (code: string) => Object.assign(new Error(`internal text ${code}`), { code });

describe('classifyUpstreamError', () => {
  it.each([
    [new UpstreamTimeoutError('connect'), 'GH_ERR_UPSTREAM_TIMEOUT', 'connect timeout'],
    [new UpstreamTimeoutError('response'), 'GH_ERR_UPSTREAM_TIMEOUT', 'response timeout'],
    [nodeError('ETIMEDOUT'), 'GH_ERR_UPSTREAM_TIMEOUT', 'connect timeout'],
    [new BodyTooLargeError(10), 'GH_ERR_PAYLOAD_TOO_LARGE', 'request body over the limit'],
    [nodeError('ENOTFOUND'), 'GH_ERR_UPSTREAM_UNREACHABLE', 'dns lookup failed'],
    [nodeError('ECONNREFUSED'), 'GH_ERR_UPSTREAM_UNREACHABLE', 'connection refused'],
    [nodeError('EHOSTUNREACH'), 'GH_ERR_UPSTREAM_UNREACHABLE', 'host unreachable'],
    [nodeError('ECONNRESET'), 'GH_ERR_UPSTREAM_CLOSED', 'connection reset'],
    [nodeError('HPE_INVALID_CONSTANT'), 'GH_ERR_UPSTREAM_INVALID_RESPONSE', 'invalid response'],
    [nodeError('DEPTH_ZERO_SELF_SIGNED_CERT'), 'GH_ERR_UPSTREAM_TLS', 'tls failure'],
    [new Error('anything else'), 'GH_ERR_UPSTREAM_UNREACHABLE', 'upstream error'],
  ])('%s → %s', (error, code, reason) => {
    const failure = classifyUpstreamError(error);
    expect({ code: failure.code, reason: failure.reason }).toEqual({ code, reason });
    expect([413, 502, 504]).toContain(statusOf(failure.code));
    expect(failure.detail).not.toContain('internal text');
  });

  it('gives the errors the gateway raises itself a code', () => {
    expect(new UpstreamTimeoutError('response').code).toBe('GH_ERR_UPSTREAM_TIMEOUT');
    expect(new BodyTooLargeError(1).code).toBe('GH_ERR_PAYLOAD_TOO_LARGE');
  });
});
