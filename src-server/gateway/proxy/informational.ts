import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Relays a target's 1xx interim response (RFC 9110 §15.2): 103 Early Hints with its `Link` headers, 102
 * Processing. Never to an HTTP/1.0 client, which cannot take one; other codes are dropped (100 Continue belongs to
 * the gateway's own exchange with the client).
 */
export function relayInformational(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  rawHeaders: readonly Buffer[],
): void {
  if (req.httpVersionMajor < 1 || (req.httpVersionMajor === 1 && req.httpVersionMinor === 0)) return;
  if (status === 102) {
    res.writeProcessing();
    return;
  }
  if (status !== 103) return;
  const hints: Record<string, string | string[]> = {};
  for (let index = 0; index < rawHeaders.length; index += 2) {
    const name = rawHeaders[index]!.toString('latin1').toLowerCase();
    const value = rawHeaders[index + 1]!.toString('latin1');
    const existing = hints[name];
    hints[name] =
      existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
  }
  // Early hints without a Link say nothing a browser can use.
  if (hints.link !== undefined) res.writeEarlyHints(hints);
}
