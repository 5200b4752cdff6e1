import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { createProxyServer, type ProxyServer, type ProxyTarget as LibraryTarget } from 'http-proxy-3';
import type { Logger } from 'pino';
import type { ForwardingPlan, TargetLocation } from '../../passthrough/forwarding/index.js';
import type { PassthroughEntry } from '../../store/config-model.js';
import type { CorsHeaders } from '../cors.js';
import type { Exchange, ExchangeCloseListener } from '../exchange.js';
import { BodyMeter } from './body-meter.js';
import { relayedResponseHeaders } from './response-headers.js';
import { UpstreamAgents } from './upstream-agents.js';
import { UpstreamDeadlines, type Deadline } from './upstream-deadlines.js';
import { BodyTooLargeError, classifyUpstreamError, UpstreamTimeoutError } from './upstream-failure.js';

/** What the library reads of a target: no second URL parse of what the plan has already checked. */
type ProxyTarget = Extract<LibraryTarget, { host: string; port: number; hostname?: string }> & {
  pathname: string;
  search: string;
  href: string;
};

function proxyTarget(location: TargetLocation): ProxyTarget {
  const defaultPort = location.protocol === 'https:' ? 443 : 80;
  return {
    protocol: location.protocol,
    host: location.hostname,
    hostname: location.hostname,
    port: location.port === '' ? defaultPort : Number(location.port),
    pathname: location.pathname,
    search: location.search,
    href: location.href,
  };
}

/** Never used: replaced per request before the library reads it (a port nothing listens on, should it not be). */
const UNSET_TARGET = new URL('http://127.0.0.1:9/');

/**
 * The request in flight of an incoming message, kept on the message until the client's response closes: the
 * library's events name only the message, and a map keyed by it would hash a new object on every request.
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
  /** The plan's target in the form the library takes. */
  target: ProxyTarget;
  entry: PassthroughEntry;
  /** CORS headers of the relayed response; undefined when CORS is off (the target's own pass unchanged). */
  cors: CorsHeaders | undefined;
  meter: BodyMeter | undefined;
  /** The body goes out chunked (the plan's framing, kept here: the library edits the header object). */
  chunked: boolean;
  /** The first failure decides the answer; later ones (the aborts it causes) are ignored. */
  failure: unknown;
  /** Sent a second time after the target closed a reused connection under it. */
  retried: boolean;
}

/**
 * Forwards requests with http-proxy-3 over shared keep-alive pools. Bodies stream both ways with backpressure;
 * the gateway adds what the library leaves open: connect and response timeouts, the body limit, exact header
 * control (including the body's framing) and error answers that reveal no internals. The only retry is of a
 * bodiless idempotent request that met a kept-alive connection the target had just closed.
 */
export class UpstreamProxy implements ExchangeCloseListener {
  readonly #agents = new UpstreamAgents();
  readonly #deadlines = new UpstreamDeadlines<Forwarding>((forwarding, error) =>
    this.#fail(forwarding, error),
  );
  readonly #proxy: ProxyServer;

  constructor(private readonly logger: Logger) {
    // Every per-request option has a slot here, so the library's one-object copy of these defaults (its fast
    // path) has the request's shape; the pass below fills the slots in. Passing options to `web()` instead makes
    // the library merge two objects per request, which costs more than the rest of its work.
    this.#proxy = createProxyServer({
      target: UNSET_TARGET,
      agent: this.#agents.http,
      secure: true,
      buffer: undefined,
      ignorePath: true,
      xfwd: false,
      selfHandleResponse: true,
    });
    this.#proxy.on('proxyReq', (upstream, req, _res, options, socket) =>
      this.#onUpstreamRequest(upstream, req, options.target, socket),
    );
    this.#proxy.on('proxyRes', (response, req, res) => this.#onUpstreamResponse(response, req, res));
    // The client went away: the library has already destroyed the upstream request; monitoring sees the abort.
    this.#proxy.on('econnreset', () => undefined);
    this.#proxy.on('error', (error, req) => this.#fail(forwardingOf(req), error));
    this.#proxy.before('web', 'timeout', (req, _res, options) => {
      const forwarding = forwardingOf(req);
      if (!forwarding) return;
      const { plan, entry } = forwarding;
      options.target = forwarding.target;
      options.agent = this.#agents.for(plan.target.protocol, entry.tls);
      options.secure = entry.tls.verify;
      options.buffer = forwarding.meter;
      // The library sets `Content-Length: 0` on DELETE/OPTIONS without one, even when the body is chunked; the
      // planned framing is put back before the request is built, or the body would smuggle into the connection.
      if (forwarding.chunked) {
        delete req.headers['content-length'];
        req.headers['transfer-encoding'] = 'chunked';
      }
    });
  }

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
      target: proxyTarget(plan.target),
      entry,
      cors,
      meter: undefined,
      chunked: plan.headers['transfer-encoding'] !== undefined,
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
    if (exchange.hasBody) {
      const meter = new BodyMeter(entry.maxRequestBodyBytes);
      forwarding.meter = meter;
      exchange.requestBody = meter;
      meter.on('error', (error) => this.#fail(forwarding, error));
      req.pipe(meter);
    }
    req.headers = plan.headers;
    this.#send(forwarding);
  }

  /** The client's response closed: the request is no longer in flight. */
  exchangeClosed(exchange: Exchange): void {
    const forwarding = forwardingOf(exchange.req);
    if (!forwarding) return;
    (exchange.req as ForwardedMessage)[FORWARDING] = undefined;
    this.#deadlines.untrack(forwarding);
  }

  #send(forwarding: Forwarding): void {
    this.#proxy.web(forwarding.exchange.req, forwarding.exchange.res);
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

  #onUpstreamRequest(upstream: ClientRequest, req: IncomingMessage, target: unknown, socket: Socket): void {
    const forwarding = forwardingOf(req);
    if (!forwarding || target !== forwarding.target) {
      // Only the planned target may ever be reached (a library that ignored the pass above must fail closed).
      upstream.destroy();
      return;
    }
    forwarding.upstream = upstream;
    if (forwarding.failure !== undefined) {
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

  #onUpstreamResponse(response: IncomingMessage, req: IncomingMessage, res: ServerResponse): void {
    const forwarding = forwardingOf(req);
    if (!forwarding || forwarding.failure !== undefined || res.headersSent || res.destroyed) {
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
      // the client left first, the library destroyed the upstream request; monitoring records the abort.)
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
      else exchange.sendProblem(400, 'The request body could not be read.');
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
    else exchange.sendProblem(failure.status, failure.detail);
  }
}

/** From the parsed headers, which the keep-alive agent reads anyway once the response is done. */
function contentLengthOf(response: IncomingMessage): number | undefined {
  const length = response.headers['content-length'];
  return length === undefined ? undefined : Number(length);
}
