import type { Duplex } from 'node:stream';
import type { Exchange, UpgradeRequest } from '../exchange/exchange.js';
import { relayedResponseHeaders } from './response-headers.js';

/**
 * Completes a relayed WebSocket handshake and joins the two connections: the target's `101` goes to the client
 * (its hop-by-hop headers replaced by the upgrade's own), then bytes flow both ways untouched (frames, extensions
 * and subprotocols are the client's and the target's business) until either side closes. The session is one
 * monitoring record, written when it ends: status 101, its duration, and the bytes each way after the handshake.
 */
export function openWebSocketSession(
  exchange: Exchange,
  upgrade: UpgradeRequest,
  target: Duplex,
  rawHeaders: readonly Buffer[],
  statusText: string,
): void {
  const client = upgrade.socket;
  if (client.destroyed) {
    target.destroy();
    return;
  }
  const { headers } = relayedResponseHeaders(rawHeaders, undefined);
  let head = `HTTP/1.1 101 ${statusText || 'Switching Protocols'}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n`;
  for (let index = 0; index < headers.length; index += 2)
    head += `${headers[index]}: ${headers[index + 1]}\r\n`;
  head += '\r\n';

  // Bytes after the handshake: the socket's counters from here on (the head the client sent early included).
  const readAtStart = (client.bytesRead ?? 0) - upgrade.head.length;
  const writtenAtStart = (client.bytesWritten ?? 0) + Buffer.byteLength(head, 'latin1');
  exchange.session = {
    status: 101,
    bytesIn: () => (client.bytesRead ?? 0) - readAtStart,
    bytesOut: () => Math.max(0, (client.bytesWritten ?? 0) - writtenAtStart),
  };
  client.write(head, 'latin1');

  if (upgrade.head.length > 0) target.write(upgrade.head);
  const end = () => {
    client.destroy();
    target.destroy();
  };
  client.on('error', end).on('close', end);
  target.on('error', end).on('close', end);
  // Either side's half-close ends the session: WebSocket closes with a Close frame, then the TCP connection.
  client.on('end', () => target.end());
  target.on('end', () => client.end());
  client.pipe(target, { end: false });
  target.pipe(client, { end: false });
}
