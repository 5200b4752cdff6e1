import { createServer, type Server } from 'node:http';

/** At most this much of a request body is echoed back; the rest is counted. */
const ECHOED_BODY_LIMIT = 64 * 1024;

export interface EchoedRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[]>;
  body: string;
  bodyBytes: number;
}

/**
 * A target for trying passthroughs locally: answers every request with 200 and the request it received as JSON
 * (method, URL, headers, body), so you can see exactly what the gateway forwarded.
 */
export function createEchoServer(): Server {
  return createServer((req, res) => {
    const kept: Buffer[] = [];
    let bodyBytes = 0;
    req.on('data', (chunk: Buffer) => {
      if (bodyBytes < ECHOED_BODY_LIMIT) kept.push(chunk.subarray(0, ECHOED_BODY_LIMIT - bodyBytes));
      bodyBytes += chunk.length;
    });
    req.on('end', () => {
      const echoed: EchoedRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: Object.fromEntries(
          Object.entries(req.headers).filter(
            (entry): entry is [string, string | string[]] => entry[1] !== undefined,
          ),
        ),
        body: Buffer.concat(kept).toString('utf8'),
        bodyBytes,
      };
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end(`${JSON.stringify(echoed, null, 2)}\n`);
    });
  });
}
