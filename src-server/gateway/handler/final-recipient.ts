import { isCredentialHeader, MASK } from '../../core/audit/mask-secrets.js';
import type { Exchange } from '../exchange/exchange.js';

/**
 * The answer to an OPTIONS or TRACE with `Max-Forwards: 0` (RFC 9110 §7.6.2): the gateway is the final recipient.
 * OPTIONS gets the methods the path serves; TRACE gets the request as received (`message/http`), credential header
 * values masked, so a reflected request never shows them.
 */
export function answerAsFinalRecipient(exchange: Exchange, servedMethods: readonly string[]): void {
  exchange.outcome = 'preflight';
  exchange.reason = 'Max-Forwards: 0, answered by the gateway';
  if (exchange.method === 'OPTIONS') {
    exchange.sendEmpty(200, [
      ['Allow', servedMethods.join(', ')],
      ['Content-Length', '0'],
      ...(exchange.cors ?? []),
    ]);
    return;
  }
  const { req } = exchange;
  let message = `${req.method} ${req.url} HTTP/${req.httpVersion}\r\n`;
  const raw = req.rawHeaders;
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index]!;
    message += `${name}: ${isCredentialHeader(name) ? MASK : raw[index + 1]!}\r\n`;
  }
  message += '\r\n';
  const body = Buffer.from(message, 'latin1');
  exchange.res.writeHead(200, [
    'Content-Type',
    'message/http',
    'Content-Length',
    String(body.length),
    ...(exchange.cors ?? []).flat(),
  ]);
  exchange.bytesOut += body.length;
  exchange.res.end(body);
}
