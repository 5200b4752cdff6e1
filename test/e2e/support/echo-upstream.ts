import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface EchoUpstream {
  url: string;
  /** Headers of the requests received, oldest first. */
  received: { method: string; url: string; headers: IncomingHttpHeaders }[];
  close: () => Promise<void>;
}

/**
 * A backend for passthroughs to forward to: answers 200 with what it received (method, URL and headers, as JSON),
 * and remembers it.
 */
export async function startEchoUpstream(): Promise<EchoUpstream> {
  const received: EchoUpstream['received'] = [];
  const server = createServer((request, response) => {
    received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ method: request.method, url: request.url, headers: request.headers }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
