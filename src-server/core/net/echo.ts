import type { IncomingMessage, ServerResponse } from 'node:http';

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
 * Answers 200 with the request as received (method, URL, headers, body) as JSON: a target for trying
 * passthroughs locally that shows exactly what the gateway forwarded. `gatehouse echo` serves it on a port of its
 * own; the Control Panel at `/echo`, for loopback callers.
 */
export function answerWithEcho(req: IncomingMessage, res: ServerResponse): void {
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
}
