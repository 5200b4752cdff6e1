import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { statusOf, type HttpErrorCode } from '../../core/contracts/error-codes.js';
import {
  newTraceId,
  problemTitleFor,
  problemTypeFor,
  PROBLEM_CONTENT_TYPE,
} from '../../core/http/problem.js';
import { isoTime } from '../../core/monitoring/iso-time.js';
import type {
  MonitoringOutcome,
  MonitoringSink,
  NewMonitoringRecord,
} from '../../core/monitoring/monitoring-record.js';
import type { CorsHeaders } from '../cors/cors.js';

/** The client's side of a WebSocket handshake: its socket, and bytes that came after the request head. */
export interface UpgradeRequest {
  socket: Duplex & { bytesRead?: number; bytesWritten?: number };
  head: Buffer;
}

export type ResponseHeaders = readonly (readonly [name: string, value: string])[];

/** Told when an exchange's response closes, before its record is made (the proxy ends its bookkeeping). */
export interface ExchangeCloseListener {
  exchangeClosed: (exchange: Exchange) => void;
}

/**
 * One request at a gateway listener, from arrival to the last byte: what it matched, who it was, what happened.
 * When the response closes (finished or aborted) it becomes one API Monitoring record.
 */
export class Exchange {
  readonly startedAt = Date.now();
  readonly started = performance.now();
  readonly method: string;
  readonly clientIp: string;
  /** Read before the forwarded headers replace the incoming ones. */
  readonly hasBody: boolean;
  path: string;
  apiId: string | undefined;
  apiName: string | undefined;
  operation: string | undefined;
  identity: string | undefined;
  targetUrl: string | undefined;
  outcome: MonitoringOutcome = 'forwarded';
  reason: string | undefined;
  bytesOut = 0;
  /** Counts the request body as it streams to the target. */
  requestBody: { bytes: number } | undefined;
  /** Added to every response the gateway itself writes (CORS of the matched entry). */
  cors: CorsHeaders | undefined;
  traceparent: string | undefined;
  closeListener: ExchangeCloseListener | undefined;
  /** The proxy's state of the request while it is in flight. */
  forwarding: unknown;
  /** The client sent `Expect: 100-continue` and waits for `100 Continue` before it sends the body. */
  awaitingContinue = false;
  /** A WebSocket handshake: the client's socket, taken over from the HTTP server. */
  upgrade: UpgradeRequest | undefined;
  /** A relayed WebSocket session: what its record reports instead of the HTTP response's figures. */
  session: { status: number; bytesIn: () => number; bytesOut: () => number } | undefined;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly group: { readonly groupId: string; readonly groupName: string },
    private readonly monitoring: MonitoringSink,
  ) {
    this.method = req.method ?? 'GET';
    this.clientIp = clientAddress(req);
    this.hasBody = hasBody(req);
    const url = req.url ?? '/';
    const queryStart = url.indexOf('?');
    this.path = queryStart === -1 ? url : url.slice(0, queryStart);
    res.on('close', () => {
      this.closeListener?.exchangeClosed(this);
      this.report();
    });
  }

  fail(outcome: MonitoringOutcome, reason: string): void {
    this.outcome = outcome;
    this.reason = reason;
  }

  /** Writes a problem+json answer (or, once the response has started, cuts the connection). */
  sendProblem(code: HttpErrorCode, detail: string, headers: ResponseHeaders = []): void {
    const { req, res } = this;
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const status = statusOf(code);
    const body = JSON.stringify({
      type: problemTypeFor(status),
      title: problemTitleFor(status),
      status,
      code,
      detail,
      instance: this.path,
      traceId: this.traceparent ?? newTraceId(),
    });
    const length = Buffer.byteLength(body);
    const all: string[] = [];
    for (const [name, value] of headers) all.push(name, value);
    for (const [name, value] of this.cors ?? []) all.push(name, value);
    all.push(
      'Content-Type',
      PROBLEM_CONTENT_TYPE,
      'Cache-Control',
      'no-store',
      'Content-Length',
      String(length),
    );
    // An unread request body would otherwise be read to its end to keep the connection.
    if (!req.complete && this.hasBody) all.push('Connection', 'close');
    res.writeHead(status, all);
    if (this.method === 'HEAD') res.end();
    else {
      this.bytesOut += length;
      res.end(body);
    }
  }

  /** A bodiless answer (a CORS preflight). */
  sendEmpty(status: number, headers: ResponseHeaders): void {
    const all: string[] = [];
    for (const [name, value] of headers) all.push(name, value);
    this.res.writeHead(status, all);
    this.res.end();
  }

  /** Reports the request to monitoring; called once, when the response closes. */
  report(): void {
    const { res, session } = this;
    if (
      session === undefined &&
      !res.writableFinished &&
      (this.outcome === 'forwarded' || this.outcome === 'preflight')
    ) {
      this.fail('client-aborted', 'the client closed the connection before the response was complete');
    }
    // One shape for every record (absent fields undefined), so the sink's code sees a single object layout.
    const record: NewMonitoringRecord = {
      time: isoTime(this.startedAt),
      agentGroupId: this.group.groupId,
      agentGroupName: this.group.groupName,
      method: this.method,
      path: this.path,
      apiId: this.apiId,
      apiName: this.apiName,
      operation: this.operation,
      status: session ? session.status : res.headersSent ? res.statusCode : 499,
      durationMs: Math.round((performance.now() - this.started) * 1000) / 1000,
      bytesIn: session ? session.bytesIn() : (this.requestBody?.bytes ?? 0),
      bytesOut: session ? session.bytesOut() : this.bytesOut,
      targetUrl: this.targetUrl,
      outcome: this.outcome,
      clientIp: this.clientIp,
      identity: this.identity,
      reason: this.reason,
    };
    const incoming = this.req.headers.traceparent;
    this.monitoring.record(record, this.traceparent ?? (Array.isArray(incoming) ? incoming[0] : incoming));
  }
}

export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function clientAddress(req: IncomingMessage): string {
  const address = req.socket.remoteAddress ?? '';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}
