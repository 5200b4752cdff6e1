import { createServer, type Server } from 'node:http';
import { answerWithEcho } from '../core/net/echo.js';

export type { EchoedRequest } from '../core/net/echo.js';

/**
 * A target for trying passthroughs locally: answers every request with 200 and the request it received as JSON
 * (method, URL, headers, body), so you can see exactly what the gateway forwarded.
 */
export function createEchoServer(): Server {
  return createServer(answerWithEcho);
}
