import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInEntry {
  id: number;
  actionName: string;
  userName: string;
  timestamp: string;
  parameters: Record<string, unknown>;
}

/** What the stand-in does to a request for a page: answer it, or one of the faults a real tenant shows. */
export type Fault =
  { kind: 'status'; status: number; retryAfter?: string } | { kind: 'hang' } | { kind: 'destroy' };

export interface StandInOptions {
  /** `items` (the seed's page), `data` (the older shape: action, user, timestampUtc, parameters as a string). */
  envelope?: 'items' | 'data';
  /** Member names of the answer in PascalCase (`Items`, `TotalCount`, `ActionName`). */
  pascalCase?: boolean;
  token?: string;
}

/**
 * A small HTTP server that answers `GET /api/v1/audit-log` like a platform tenant: paged newest first, the time
 * filter honoured, parameter names in any case, and faults queued per page number.
 */
export class AuditStandIn {
  readonly entries: StandInEntry[] = [];
  /** Faults to give, in order, for a page number (then it answers normally). */
  readonly faults = new Map<number, Fault[]>();
  /** Every request's page number and query (lower-cased names), in order. */
  readonly requests: Record<string, string>[] = [];
  private server!: Server;
  url = '';

  constructor(private readonly options: StandInOptions = {}) {}

  add(count: number, fromMs: number, stepMs = 60_000): void {
    for (let i = 0; i < count; i++) {
      const id = this.entries.length + 1;
      this.entries.push({
        id,
        actionName: ['Process.Deploy', 'Role.Modify', 'EnvironmentVariable.Modify'][id % 3]!,
        userName: ['alice', 'bob'][id % 2]!,
        timestamp: new Date(fromMs + i * stepMs).toISOString(),
        parameters: { n: id },
      });
    }
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    if (url.pathname !== '/api/v1/audit-log') {
      res.writeHead(404).end();
      return;
    }
    if (this.options.token && req.headers.authorization !== `Bearer ${this.options.token}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
      return;
    }
    const query: Record<string, string> = {};
    for (const [name, value] of url.searchParams) query[name.toLowerCase()] = value;
    this.requests.push(query);
    const page = Number(query.pagenumber ?? '1');
    const size = Math.min(Number(query.pagesize ?? '30'), 200);
    const fault = this.faults.get(page)?.shift();
    if (fault?.kind === 'status') {
      res
        .writeHead(fault.status, fault.retryAfter ? { 'retry-after': fault.retryAfter } : {})
        .end('{"title":"try later"}');
      return;
    }
    if (fault?.kind === 'destroy') {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'hang') return;
    const start = query.startdatetimeutc ? Date.parse(query.startdatetimeutc) : -Infinity;
    const end = query.enddatetimeutc ? Date.parse(query.enddatetimeutc) : Infinity;
    const matching = this.entries
      .filter((entry) => {
        const t = Date.parse(entry.timestamp);
        return t >= start && t < end;
      })
      .sort((a, b) => Date.parse(b.timestamp) - Date.parse(a.timestamp) || b.id - a.id);
    const items = matching.slice((page - 1) * size, page * size);
    const name = (text: string) => (this.options.pascalCase ? text[0]!.toUpperCase() + text.slice(1) : text);
    let body: Record<string, unknown>;
    if (this.options.envelope === 'data') {
      body = {
        [name('data')]: items.map((entry) => ({
          [name('id')]: entry.id,
          [name('action')]: entry.actionName,
          [name('user')]: entry.userName,
          [name('timestampUtc')]: entry.timestamp,
          [name('description')]: `entry ${entry.id}`,
          [name('parameters')]: JSON.stringify(entry.parameters),
        })),
      };
    } else {
      body = {
        [name('items')]: items.map((entry) =>
          Object.fromEntries(Object.entries(entry).map(([key, value]) => [name(key), value])),
        ),
        [name('pageNumber')]: page,
        [name('pageSize')]: size,
        [name('totalCount')]: matching.length,
      };
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }
}
