import { ServerResponse, type IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { ErrorCode } from '../../core/contracts/error-codes.js';
import { Exchange, hasBody } from '../exchange/exchange.js';
import { runExchange, type GatewayHandlerDeps } from './request-handler.js';

/** What the listener does with a request that asks to switch protocols (Node hands over its socket). */
export type UpgradeListener = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/**
 * Requests with an `Upgrade` header. `Upgrade: websocket` runs the whole pipeline (routing, CORS, policies,
 * throttling, the plan) and, when the entry allows WebSocket, is relayed to the target as a handshake; its session
 * is one monitoring record. Any other upgrade (h2c, …) is served as an ordinary request with the header ignored,
 * as RFC 9110 §7.8 lets a server do. Answers are written through a response bound to the socket, which closes
 * after them.
 */
export function createUpgradeHandler(deps: GatewayHandlerDeps): UpgradeListener {
  return (req, socket, head) => {
    socket.on('error', () => socket.destroy());
    // Node's HTTP server hands over the net.Socket it accepted (the event only promises a Duplex).
    if (!(socket instanceof Socket)) {
      socket.destroy();
      return;
    }
    const res = new ServerResponse(req);
    res.assignSocket(socket);
    res.shouldKeepAlive = false;
    res.on('finish', () => socket.end());
    // A Try-it draft's token is taken (and removed) here too, so it never travels on to the target.
    const runtime = deps.draftRuntime?.(req) ?? deps.runtime();
    const exchange = new Exchange(req, res, runtime, deps.monitoring);
    if (isWebSocketUpgrade(req)) exchange.upgrade = { socket, head };
    else if (hasBody(req)) {
      // The HTTP parser has let go of the connection: a body after the head could not be read as one.
      exchange.fail('refused', 'upgrade request with a body');
      exchange.sendProblem(
        ErrorCode.GH_ERR_UPGRADE_WITH_BODY,
        'A request asking to switch protocols cannot carry a body here.',
      );
      return;
    }
    runExchange(deps, runtime, exchange);
  };
}

function isWebSocketUpgrade(req: IncomingMessage): boolean {
  const upgrade = req.headers.upgrade;
  return (
    upgrade !== undefined && upgrade.split(',').some((token) => token.trim().toLowerCase() === 'websocket')
  );
}
