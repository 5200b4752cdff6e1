import type { IncomingMessage, RequestListener } from 'node:http';
import type { Logger } from 'pino';
import { maskCredentialQuery } from '../../core/audit/mask-secrets.js';
import { ErrorCode, type HttpErrorCode } from '../../core/contracts/error-codes.js';
import type { MonitoringOutcome, MonitoringSink } from '../../core/monitoring/monitoring-record.js';
import { planForwarding, stopsHere, withoutQueryParameter } from '../../core/passthrough/forwarding/index.js';
import { preflightHeaders, responseCorsHeaders } from '../cors/cors.js';
import { ExchangeCapture } from '../exchange/capture.js';
import { Exchange } from '../exchange/exchange.js';
import { checkAccess, type AccessRefusalCode, type AccessResult } from '../policies/access-check.js';
import type { JwtVerifier } from '../policies/jwt-verifier.js';
import type { ThrottleStore } from '../throttle/throttle-store.js';
import type { UpstreamProxy } from '../proxy/upstream-proxy.js';
import { answerAsFinalRecipient } from './final-recipient.js';
import { checkExpect, checkHost, webSocketRefusal } from './request-checks.js';
import { admitted } from './throttle-admission.js';
import { parseRequestTarget } from './request-target.js';
import type { GroupRuntime } from '../runtime/group-runtime.js';
import { resolveRoute, type RouteResolution } from '../runtime/route-table.js';

export interface GatewayHandlerDeps {
  /** The group's current runtime; read once per request, so a request keeps the table it started with. */
  runtime: () => GroupRuntime;
  /** The runtime of an unsaved draft the request carries the one-use token of (Try it), if any. */
  draftRuntime?: (req: IncomingMessage) => GroupRuntime | undefined;
  monitoring: MonitoringSink;
  proxy: UpstreamProxy;
  jwt: JwtVerifier;
  throttle: ThrottleStore;
  logger: Logger;
}

/**
 * The request pipeline of one agent group's listener: target → route → CORS preflight → policies → throttle →
 * body limit → forwarding plan → proxy. Every request, whatever its fate, ends as one monitoring record.
 */
export function createGatewayHandler(deps: GatewayHandlerDeps): RequestListener {
  return (req, res) => {
    const runtime = deps.draftRuntime?.(req) ?? deps.runtime();
    runExchange(deps, runtime, new Exchange(req, res, runtime, deps.monitoring));
  };
}

/** Runs the pipeline for one exchange (a request, or a WebSocket handshake: see upgrade-handler.ts). */
export function runExchange(deps: GatewayHandlerDeps, runtime: GroupRuntime, exchange: Exchange): void {
  try {
    const pending = handle(deps, runtime, exchange);
    if (pending) pending.catch((error: unknown) => unexpected(deps, exchange, error));
  } catch (error) {
    unexpected(deps, exchange, error);
  }
}

function unexpected(deps: GatewayHandlerDeps, exchange: Exchange, error: unknown): void {
  deps.logger.error({ err: error, agentGroup: exchange.group.groupId }, 'gateway request failed');
  exchange.fail('configuration-error', 'unexpected gateway error');
  exchange.sendProblem(ErrorCode.GH_ERR_INTERNAL, 'An unexpected error occurred.');
}

/** Synchronous unless a bearer token has to be verified; then the rest runs when it is. */
function handle(
  deps: GatewayHandlerDeps,
  runtime: GroupRuntime,
  exchange: Exchange,
): Promise<void> | undefined {
  const { req } = exchange;
  const hostProblem = checkHost(req);
  if (hostProblem) {
    refuse(exchange, ErrorCode.GH_ERR_BAD_HOST, hostProblem, 'bad host header');
    return;
  }
  const expectation = checkExpect(req);
  if (expectation === 'unsupported') {
    refuse(
      exchange,
      ErrorCode.GH_ERR_EXPECTATION_FAILED,
      'The only expectation the gateway meets is 100-continue.',
      'unsupported expectation',
    );
    return;
  }
  exchange.awaitingContinue = expectation === 'continue';
  const target = parseRequestTarget(req.url ?? '/');
  if (!target.ok) {
    refuse(exchange, ErrorCode.GH_ERR_BAD_REQUEST_TARGET, target.detail, 'bad request target');
    return;
  }
  exchange.path = target.path;
  const method = exchange.method;

  const origin = single(req.headers.origin);
  const requestedMethod = single(req.headers['access-control-request-method']);
  if (method === 'OPTIONS' && origin !== undefined && requestedMethod !== undefined) {
    // Preflights carry no credentials, so they are answered before any policy.
    const preflight = resolveRoute(runtime.apis, requestedMethod, target);
    if (preflight.kind === 'endpoint' && preflight.endpoint.cors) {
      describeRoute(exchange, preflight, runtime);
      const requestedHeaders = single(req.headers['access-control-request-headers']);
      const answer = preflightHeaders(
        preflight.endpoint.cors,
        origin,
        preflight.servedMethods,
        requestedHeaders,
      );
      if (answer.allowed) exchange.outcome = 'preflight';
      else {
        // Still a 204 (a refusal status tells a browser nothing more), but monitoring says what it meant.
        exchange.fail(
          'preflight-refused',
          `origin ${origin} is not allowed for ${requestedMethod} here: answered without CORS headers, so the browser blocks the request`,
        );
      }
      exchange.sendEmpty(204, answer.headers);
      return undefined;
    }
  }

  const route = resolveRoute(runtime.apis, method, target, req.headers);
  describeRoute(exchange, route, runtime);
  if (route.kind === 'unmatched') {
    exchange.fail('unmatched', 'no passthrough endpoint');
    exchange.sendProblem(ErrorCode.GH_ERR_NO_ENDPOINT, 'No passthrough endpoint matches this request.');
    return undefined;
  }
  if (route.kind === 'method-not-allowed') {
    const allow = route.allow.join(', ');
    exchange.fail('method-not-allowed', `${method} is not defined for this path`);
    exchange.sendProblem(ErrorCode.GH_ERR_METHOD_NOT_ALLOWED, `This endpoint supports ${allow}.`, [
      ['Allow', allow],
    ]);
    return undefined;
  }
  if (route.endpoint.cors) exchange.cors = responseCorsHeaders(route.endpoint.cors, origin);
  if (exchange.upgrade) {
    const refusal = webSocketRefusal(route.endpoint, method, origin);
    if (refusal) {
      refuse(exchange, refusal.code, refusal.detail, refusal.reason);
      return;
    }
  }

  const now = new Date();
  const access = checkAccess(
    { policies: runtime.policies, apiKeys: runtime.apiKeys, jwt: deps.jwt, realm: runtime.groupName },
    {
      method,
      decodedSegments: target.decodedSegments,
      headers: req.headers,
      query: target.query,
      clientIp: exchange.clientIp,
      now,
    },
  );
  if (access instanceof Promise) {
    return access.then((result) =>
      forwardIfGranted(deps, runtime, exchange, route, target.query, result, now),
    );
  }
  return forwardIfGranted(deps, runtime, exchange, route, target.query, access, now);
}

type EndpointRoute = Extract<RouteResolution, { kind: 'endpoint' }>;
type GrantedAccess = Extract<AccessResult, { granted: true }>;

/** Synchronous unless the throttle counts in a shared store; then the rest runs when it has answered. */
function forwardIfGranted(
  deps: GatewayHandlerDeps,
  runtime: GroupRuntime,
  exchange: Exchange,
  route: EndpointRoute,
  rawQuery: string,
  access: AccessResult,
  now: Date,
): Promise<void> | undefined {
  if (!access.granted) {
    if (access.identity) exchange.identity = access.identity;
    exchange.fail(OUTCOME_OF_REFUSAL[access.code], access.detail);
    exchange.sendProblem(
      access.code,
      access.detail,
      access.challenge ? [['WWW-Authenticate', access.challenge]] : [],
    );
    return undefined;
  }
  exchange.identity = access.identity;
  const throttle = access.policy.throttle;
  if (!throttle) {
    forward(deps, runtime, exchange, route, rawQuery, access, now);
    return undefined;
  }
  const key = { policyId: access.policy.id, identity: access.throttleIdentity };
  const verdict = deps.throttle.take(key, throttle.limit, throttle.per, now.getTime());
  if (verdict instanceof Promise) {
    return verdict.then((answer) => {
      if (admitted(exchange, answer, throttle))
        forward(deps, runtime, exchange, route, rawQuery, access, now);
    });
  }
  if (admitted(exchange, verdict, throttle)) forward(deps, runtime, exchange, route, rawQuery, access, now);
  return undefined;
}

function forward(
  deps: GatewayHandlerDeps,
  runtime: GroupRuntime,
  exchange: Exchange,
  route: EndpointRoute,
  rawQuery: string,
  access: GrantedAccess,
  now: Date,
): void {
  const { req } = exchange;
  if (stopsHere(exchange.method, req.headers['max-forwards'])) {
    answerAsFinalRecipient(exchange, route.servedMethods);
    return;
  }

  const { endpoint } = route;
  if (endpoint.compiled === undefined) {
    exchange.fail('configuration-error', 'the entry does not compile');
    exchange.sendProblem(
      ErrorCode.GH_ERR_PASSTHROUGH_MISCONFIGURED,
      endpoint.unavailable ?? 'The passthrough configuration of this endpoint is not valid.',
    );
    return;
  }
  const limit = endpoint.entry.maxRequestBodyBytes;
  const declaredLength = req.headers['content-length'];
  if (declaredLength !== undefined && Number(declaredLength) > limit) {
    exchange.fail('payload-too-large', 'declared body over the limit');
    exchange.sendProblem(
      ErrorCode.GH_ERR_PAYLOAD_TOO_LARGE,
      `The request body is larger than the limit of ${limit} bytes.`,
    );
    return;
  }

  const query = access.consumed.query ? withoutQueryParameter(rawQuery, access.consumed.query) : rawQuery;
  const plan = planForwarding(
    endpoint.compiled,
    {
      method: exchange.method,
      path: exchange.path,
      query,
      headers: req.headers,
      clientIp: exchange.clientIp,
      scheme: 'http',
    },
    {
      basePath: route.api.basePath,
      operationPath: route.operationPath,
      pathParameters: route.pathParameters,
    },
    { env: runtime.env.lookup, dropHeader: access.consumed.header, now },
  );
  if (!plan.ok) {
    exchange.fail(plan.status === 503 ? 'configuration-error' : 'refused', `${plan.kind} in ${plan.place}`);
    const detail =
      plan.status === 503
        ? `The passthrough configuration cannot be applied: ${plan.message}.`
        : `The request cannot be forwarded: ${plan.message}.`;
    exchange.sendProblem(
      plan.status === 503
        ? ErrorCode.GH_ERR_PASSTHROUGH_MISCONFIGURED
        : ErrorCode.GH_ERR_UNFORWARDABLE_REQUEST,
      detail,
    );
    return;
  }
  // Credentials a client put in the query (and a template passed on) stay out of monitoring, like secret values.
  exchange.targetUrl = maskCredentialQuery(plan.maskedTargetUrl, runtime.credentialQueryNames);
  exchange.traceparent = plan.traceparent;
  deps.proxy.forward(exchange, plan, endpoint.entry, exchange.cors);
}

const OUTCOME_OF_REFUSAL: Record<AccessRefusalCode, MonitoringOutcome> = {
  [ErrorCode.GH_ERR_NO_POLICY]: 'unauthenticated',
  [ErrorCode.GH_ERR_UNAUTHENTICATED]: 'unauthenticated',
  [ErrorCode.GH_ERR_INVALID_CREDENTIALS]: 'unauthenticated',
  [ErrorCode.GH_ERR_API_KEY_EXPIRED]: 'unauthenticated',
  [ErrorCode.GH_ERR_FORBIDDEN]: 'denied',
  [ErrorCode.GH_ERR_ISSUER_UNAVAILABLE]: 'configuration-error',
};

function describeRoute(exchange: Exchange, route: RouteResolution, runtime: GroupRuntime): void {
  if (route.api) {
    exchange.apiId = route.api.id;
    exchange.apiName = route.api.name;
    const capture = runtime.captures.get(route.api.id);
    if (capture) exchange.capture = new ExchangeCapture(capture, exchange.req);
  }
  if (route.kind === 'endpoint') {
    exchange.operation = route.endpoint.operation;
    exchange.viaAllOperations = route.endpoint.viaAllOperations;
  }
}

function refuse(exchange: Exchange, code: HttpErrorCode, detail: string, reason: string): undefined {
  exchange.fail('refused', reason);
  exchange.sendProblem(code, detail);
  return undefined;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
