import type { RequestHandler } from 'express';
import { HttpProblem } from '../../core/http/problem.js';
import { sendProblem } from '../../core/http/send.js';
import { ErrorCode } from '../../core/contracts/error-codes.js';

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]', '::1'];

/** `example.com:4700` → `example.com`; `[::1]:4700` → `[::1]`. */
export function hostNameOf(hostHeader: string): string {
  const trimmed = hostHeader.trim().toLowerCase();
  if (trimmed.startsWith('[')) {
    const end = trimmed.indexOf(']');
    return end === -1 ? trimmed : trimmed.slice(0, end + 1);
  }
  const colon = trimmed.lastIndexOf(':');
  return colon === -1 ? trimmed : trimmed.slice(0, colon);
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
    if (host && allowed.has(hostNameOf(host))) {
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
