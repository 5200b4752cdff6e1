import {
  request as httpRequest,
  type ClientRequest,
  type IncomingMessage,
  type RequestOptions,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import type { ForwardingPlan } from '../../core/passthrough/forwarding/index.js';
import type { PassthroughEntry } from '../../core/model/config-model.js';
import type { CorsHeaders } from '../cors/cors.js';
import type { Exchange, ExchangeCloseListener } from '../exchange/exchange.js';
import { BodyMeter } from './body-meter.js';
import { relayedResponseHeaders } from './response-headers.js';
import { UpstreamAgents } from './upstream-agents.js';
import { UpstreamDeadlines, type Deadline } from './upstream-deadlines.js';
import { BodyTooLargeError, classifyUpstreamError, UpstreamTimeoutError } from './upstream-failure.js';
import { ErrorCode } from '../../core/contracts/error-codes.js';

/**
 * The request in flight of an incoming message, kept on the message until the client's response closes: a map
 * keyed by the message would hash a new object on every request.
 */
const FORWARDING = Symbol('forwarding');
type ForwardedMessage = IncomingMessage & { [FORWARDING]?: Forwarding | undefined };

function forwardingOf(req: IncomingMessage): Forwarding | undefined {
  return (req as ForwardedMessage)[FORWARDING];
}

const IDEMPOTENT_WITHOUT_BODY = new Set(['GET', 'HEAD', 'OPTIONS', 'DELETE', 'PUT']);

/** One request on its way to the target. */
interface Forwarding extends Deadline {
  exchange: Exchange;
  plan: ForwardingPlan;
  entry: PassthroughEntry;
  /** CORS headers of the relayed response; undefined when CORS is off (the target's own pass unchanged). */
  cors: CorsHeaders | undefined;
  meter: BodyMeter | undefined;
  /** The first failure decides the answer; later ones (the aborts it causes) are ignored. */
  failure: unknown;
  /** Sent a second time after the target closed a reused connection under it. */
  retried: boolean;
}

/**
 * Forwards requests over shared keep-alive pools with Node's own client, exactly as planned: the plan's target,
 * method and headers (the body's framing included), nothing added. Bodies stream both ways with backpressure;
 * the proxy adds connect and response timeouts, the body limit, the response relay and error answers that reveal
 * no internals. The only retry is of a bodiless idempotent request that met a kept-alive connection the target
 * had just closed.
 *
 * (node-http-proxy's API, through http-proxy-3, did this job before: its per-request option merging and passes
 * cost more CPU than the whole rest of the gateway's work, and the gateway had overridden most of them anyway.)
 */
export class UpstreamProxy implements ExchangeCloseListener {
  readonly #agents = new UpstreamAgents();
  readonly #deadlines = new UpstreamDeadlines<Forwarding>((forwarding, error) =>
    this.#fail(forwarding, error),
  );

  constructor(private readonly logger: Logger) {}

  forward(
    exchange: Exchange,
    plan: ForwardingPlan,
    entry: PassthroughEntry,
    cors: CorsHeaders | undefined,
  ): void {
    const { req } = exchange;
    const now = performance.now();
    const forwarding: Forwarding = {
      exchange,
      plan,
      entry,
      cors,
      meter: undefined,
      failure: undefined,
      upstream: undefined,
      connectMs: entry.timeouts.connectMs,
      responseMs: entry.timeouts.responseMs,
      startedAt: now,
      connectedAt: undefined,
      lastProgress: 0,
      lastProgressAt: now,
      previousDeadline: undefined,
      nextDeadline: undefined,
      tracked: false,
      retried: false,
    };
    (req as ForwardedMessage)[FORWARDING] = forwarding;
    exchange.closeListener = this;
    this.#deadlines.track(forwarding);
    req.on('error', (error) => this.#onError(forwarding, error));
    if (exchange.hasBody) {
      const meter = new BodyMeter(entry.maxRequestBodyBytes);
      forwarding.meter = meter;
      exchange.requestBody = meter;
      meter.on('error', (error) => this.#fail(forwarding, error));
      req.pipe(meter);
    }
    this.#send(forwarding);
  }

  /** The client's response closed: the request is no longer in flight. */
  exchangeClosed(exchange: Exchange): void {
    const forwarding = forwardingOf(exchange.req);
    if (!forwarding) return;
    (exchange.req as ForwardedMessage)[FORWARDING] = undefined;
    this.#deadlines.untrack(forwarding);
    // The client left before the whole answer was written: the request to the target goes too.
    if (!exchange.res.writableFinished) forwarding.upstream?.destroy();
  }

  #send(forwarding: Forwarding): void {
    const { plan, entry, exchange } = forwarding;
    const target = plan.target;
    const secure = target.protocol === 'https:';
    const options: RequestOptions & { rejectUnauthorized?: boolean } = {
      agent: this.#agents.for(target.protocol, entry.tls),
      // The URL writes an IPv6 address in brackets; the socket wants it bare.
      hostname: target.hostname.startsWith('[') ? target.hostname.slice(1, -1) : target.hostname,
      port: target.port === '' ? (secure ? 443 : 80) : Number(target.port),
      method: exchange.method,
      path: target.pathname + target.search,
      headers: plan.headers,
    };
    if (secure) options.rejectUnauthorized = entry.tls.verify;
    const upstream = (secure ? httpsRequest : httpRequest)(options);
    forwarding.upstream = upstream;
    upstream.on('socket', (socket: Socket) => this.#onSocket(forwarding, upstream, socket));
    upstream.on('response', (response: IncomingMessage) => this.#onUpstreamResponse(forwarding, response));
    upstream.on('error', (error) => this.#onError(forwarding, error));
    if (forwarding.meter) forwarding.meter.pipe(upstream);
    else upstream.end();
  }

  /** An error of the client's request or of the request to the target. */
  #onError(forwarding: Forwarding, error: NodeJS.ErrnoException): void {
    // The client went away: the target's request is dropped with it; monitoring records the abort.
    if (error.code === 'ECONNRESET' && forwarding.exchange.req.socket.destroyed) {
      forwarding.upstream?.destroy();
      return;
    }
    this.#fail(forwarding, error);
  }

  /**
   * A kept-alive connection the target closed just as it was reused fails before any answer. A request without
   * a body and with an idempotent method is sent once more on a fresh connection; nothing else is ever retried.
   */
  #retryOnStaleConnection(forwarding: Forwarding, error: unknown): boolean {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if (code !== 'ECONNRESET' && code !== 'EPIPE') return false;
    const { exchange, upstream } = forwarding;
    if (forwarding.retried || !upstream?.reusedSocket || exchange.hasBody || exchange.res.headersSent)
      return false;
    if (!IDEMPOTENT_WITHOUT_BODY.has(exchange.method) || exchange.req.errored) return false;
    forwarding.retried = true;
    forwarding.upstream = undefined;
    forwarding.connectedAt = undefined;
    forwarding.startedAt = performance.now();
    this.#deadlines.track(forwarding);
    this.#send(forwarding);
    return true;
  }

  close(): void {
    this.#deadlines.close();
    this.#agents.destroy();
  }

  #onSocket(forwarding: Forwarding, upstream: ClientRequest, socket: Socket): void {
    if (forwarding.failure !== undefined || forwarding.upstream !== upstream) {
      upstream.destroy();
      return;
    }
    // A kept-alive connection is up from the start (the moments between do not matter to a timeout).
    if (upstream.reusedSocket) forwarding.connectedAt = forwarding.startedAt;
    else {
      socket.once(forwarding.plan.target.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
        forwarding.connectedAt = performance.now();
      });
    }
  }

  #onUpstreamResponse(forwarding: Forwarding, response: IncomingMessage): void {
    const { res } = forwarding.exchange;
    if (forwarding.failure !== undefined || res.headersSent || res.destroyed) {
      response.destroy();
      return;
    }
    const headers = relayedResponseHeaders(response, forwarding.cors);
    if (response.statusMessage) res.writeHead(response.statusCode ?? 502, response.statusMessage, headers);
    else res.writeHead(response.statusCode ?? 502, headers);
    const { exchange } = forwarding;
    const status = response.statusCode ?? 502;
    const bodyless = exchange.method === 'HEAD' || status === 204 || status === 304;
    const declaredLength = bodyless ? 0 : contentLengthOf(response);
    // With a declared length the body's size is known; only an unframed body is counted as it streams.
    if (declaredLength === undefined)
      response.on('data', (chunk: Buffer) => (exchange.bytesOut += chunk.length));
    else if (declaredLength > 0) {
      exchange.relayed = response;
      exchange.relayedLength = declaredLength;
    }
    // `on`, not `once`: a stream closes once, and `once` wraps the listener for every response.
    response.on('close', () => {
      // The target broke off mid-body: the client must not mistake the truncated body for a whole one. (When
      // the client left first, its request to the target was destroyed; monitoring records the abort.)
      if (!response.complete && !res.destroyed) {
        this.#fail(forwarding, Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
      }
    });
    response.pipe(res);
  }

  #fail(forwarding: Forwarding | undefined, error: unknown): void {
    if (!forwarding || forwarding.failure !== undefined) return;
    if (this.#retryOnStaleConnection(forwarding, error)) return;
    forwarding.failure = error;
    this.#deadlines.untrack(forwarding);
    const { exchange } = forwarding;
    forwarding.upstream?.destroy();
    if (forwarding.meter) exchange.req.unpipe(forwarding.meter);
    // The client's own request stream failed (a malformed chunk, a cut upload): not the target's fault.
    if (exchange.req.errored && !(error instanceof BodyTooLargeError)) {
      exchange.fail('client-aborted', 'the request could not be read to its end');
      if (exchange.res.headersSent || exchange.req.socket.destroyed) exchange.res.destroy();
      else exchange.sendProblem(ErrorCode.GH_ERR_UNREADABLE_BODY, 'The request body could not be read.');
      return;
    }
    const failure = classifyUpstreamError(error);
    exchange.fail(failure.outcome, failure.reason);
    if (failure.outcome === 'upstream-error' && !(error instanceof UpstreamTimeoutError)) {
      this.logger.debug(
        { code: (error as NodeJS.ErrnoException).code, traceparent: exchange.traceparent },
        'upstream failed',
      );
    }
    if (exchange.res.headersSent) exchange.res.destroy();
    else exchange.sendProblem(failure.code, failure.detail);
  }
}

/** From the parsed headers, which the keep-alive agent reads anyway once the response is done. */
function contentLengthOf(response: IncomingMessage): number | undefined {
  const length = response.headers['content-length'];
  return length === undefined ? undefined : Number(length);
}
