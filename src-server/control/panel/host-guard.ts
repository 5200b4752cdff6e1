import type { RequestHandler } from 'express';
import { HttpProblem } from '../../core/http/problem.js';
import { sendProblem } from '../../core/http/send.js';
import { ErrorCode } from '../../core/contracts/error-codes.js';

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]', '::1'];

/** A name or a bracketed IPv6 address, then an optional port of digits: nothing else is a Host header. */
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[^\s:@/\\?#[\]]+)(?::\d{1,5})?$/;

/**
 * `example.com:4700` → `example.com`; `[::1]:4700` → `[::1]`; undefined for anything that is not a host and
 * port (`127.0.0.1:4700@evil.example` would otherwise pass as 127.0.0.1, and the Host header is echoed into the
 * sign-in link and the OpenAPI document's server URL).
 */
export function hostNameOf(hostHeader: string): string | undefined {
  return HOST_HEADER.exec(hostHeader.trim().toLowerCase())?.[1];
}

/**
 * Guards against DNS rebinding: a page on an attacker's domain that resolves to 127.0.0.1 reaches this port
 * with its own name in the Host header, so only the bound address, localhost and configured names are served.
 * Bound to 0.0.0.0, the machine's other names must be listed in ControlPanel:AllowedHosts.
 */
export function hostGuard(boundHost: string, extraNames: readonly string[]): RequestHandler {
  const allowed = new Set(
    [...LOOPBACK_NAMES, boundHost, boundHost.includes(':') ? `[${boundHost}]` : boundHost, ...extraNames]
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
  return (req, res, next) => {
    const host = req.headers.host;
    const name = host === undefined ? undefined : hostNameOf(host);
    if (name !== undefined && allowed.has(name)) {
      next();
      return;
    }
    sendProblem(
      req,
      res,
      new HttpProblem(
        ErrorCode.GH_ERR_HOST_NOT_ALLOWED,
        'This host name is not served here. Use the address Gatehouse printed at start, or add the name to ControlPanel:AllowedHosts.',
      ),
    );
  };
}
