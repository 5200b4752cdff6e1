import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A local HTTP server publishing API descriptions, as a backend's `/swagger.json` would: files by path
 * (changeable while it runs), or handlers for slow, huge or redirecting answers. Counts the requests per path.
 */
export class DescriptionServer {
  readonly files = new Map<string, { body: string | Buffer; contentType?: string }>();
  readonly handlers = new Map<string, Handler>();
  readonly requests: string[] = [];
  private readonly server = createServer((req, res) => this.handle(req, res));
  private port = 0;

  static async start(): Promise<DescriptionServer> {
    const instance = new DescriptionServer();
    await new Promise<void>((resolve) => instance.server.listen(0, '127.0.0.1', resolve));
    instance.port = (instance.server.address() as AddressInfo).port;
    return instance;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  serve(path: string, body: string | Buffer | object, contentType?: string): void {
    const text = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
    this.files.set(path, { body: text, ...(contentType ? { contentType } : {}) });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    this.requests.push(path);
    const handler = this.handlers.get(path);
    if (handler) {
      handler(req, res);
      return;
    }
    const file = this.files.get(path);
    if (!file) {
      res.writeHead(404).end('not found');
      return;
    }
    const contentType =
      file.contentType ?? (path.endsWith('.json') ? 'application/json' : 'application/yaml');
    res.writeHead(200, { 'Content-Type': contentType }).end(file.body);
  }
}
