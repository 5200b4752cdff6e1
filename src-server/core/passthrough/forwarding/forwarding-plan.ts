import { isCredentialHeader, MASK } from '../../audit/mask-secrets.js';
import type { CompiledPassthroughEntry } from '../compile-entry.js';
import type { RenderError, RenderErrorKind, RenderScope, TemplatePlace } from '../../template/index.js';
import { connectionListedHeaders, isHopByHop } from './hop-by-hop.js';
import { createRenderScope, type EnvLookup } from './render-scope.js';
import { targetLocation, type TargetLocation } from './target-location.js';
import { appendForwarded, appendVia, decrementedMaxForwards } from './proxy-headers.js';
import { traceparentFor } from './traceparent.js';

/**
 * What one request becomes on its way to the target: the URL and the headers, or a typed refusal. The gateway
 * runs it per request and the editor's preview runs it on a sample request, so both always agree.
 */

export type IncomingHeaders = Readonly<Record<string, string | string[] | undefined>>;
/** Lower-case names; an array is one header line per value. */
export type OutgoingHeaders = Record<string, string | string[]>;

export interface ForwardingRequest {
  method: string;
  /** As received, still percent-encoded, without the query. */
  path: string;
  /** As received, without `?`. */
  query: string;
  /** Lower-case names, as Node parses them. */
  headers: IncomingHeaders;
  clientIp: string;
  scheme: 'http' | 'https';
}

export interface ForwardingRoute {
  /** The API base path from its specification. */
  basePath: string;
  /** The incoming path below the base path, as received. */
  operationPath: string;
  /** Decoded values of the operation's path parameters. */
  pathParameters: Readonly<Record<string, string>>;
}

export interface ForwardingOptions {
  env: EnvLookup;
  /** Also compute the masked forms (the preview shows them; the gateway does not need them). */
  masked?: boolean;
  /** A lower-case name removed besides the hop-by-hop ones: the header that carried an API key. */
  dropHeader?: string;
  /** The request's instant (`DateTime.UtcNow`); read from the clock when absent. */
  now?: Date;
  newGuid?: () => string;
}

export interface ForwardingPlan {
  ok: true;
  target: TargetLocation;
  targetUrl: string;
  maskedTargetUrl: string;
  headers: OutgoingHeaders;
  /** Only with `masked: true`; credential headers and secret-derived values as `********`. */
  maskedHeaders?: OutgoingHeaders;
  traceparent: string;
}

/** Request data would leave the target (400), or configuration is missing at request time (503). */
export interface ForwardingRefusal {
  ok: false;
  status: 400 | 503;
  kind: RenderErrorKind;
  place: TemplatePlace | 'target';
  /** Names places and references, never values. */
  message: string;
  reference?: string;
}

export type ForwardingResult = ForwardingPlan | ForwardingRefusal;

/** Set by the gateway itself; the client's own values are replaced, never passed on. */
const GATEWAY_SET = new Set(['host', 'expect', 'x-forwarded-proto', 'x-forwarded-host', 'traceparent']);

export function planForwarding(
  compiled: CompiledPassthroughEntry,
  request: ForwardingRequest,
  route: ForwardingRoute,
  options: ForwardingOptions,
): ForwardingResult {
  const scope = createRenderScope({
    env: options.env,
    basePath: route.basePath,
    operationPath: route.operationPath,
    pathParameters: route.pathParameters,
    queryString: request.query,
    now: options.now,
    newGuid: options.newGuid,
  });
  const rendered = compiled.target.render(scope);
  if (!rendered.ok) return refusal(rendered.error);
  const target = targetLocation(rendered.url);

  const headers: OutgoingHeaders = {};
  const masked: OutgoingHeaders | undefined = options.masked ? {} : undefined;
  copyEndToEndHeaders(request.headers, headers, options.dropHeader);

  const forwardedFor = ownHeader(request.headers, 'x-forwarded-for');
  const priorFor = Array.isArray(forwardedFor) ? forwardedFor.join(', ') : forwardedFor;
  headers['x-forwarded-for'] = priorFor ? `${priorFor}, ${request.clientIp}` : request.clientIp;
  headers['x-forwarded-proto'] = request.scheme;
  const host = ownHeader(request.headers, 'host');
  if (typeof host === 'string' && host !== '') headers['x-forwarded-host'] = host;
  const traceparent = traceparentFor(ownHeader(request.headers, 'traceparent'));
  headers.traceparent = traceparent;
  const via = ownHeader(request.headers, 'via');
  headers.via = appendVia(via);
  const forwarded = ownHeader(request.headers, 'forwarded');
  if (forwarded !== undefined) {
    headers.forwarded = appendForwarded(
      forwarded,
      request.clientIp,
      typeof host === 'string' ? host : undefined,
      request.scheme,
    );
  }
  if (request.method === 'OPTIONS' || request.method === 'TRACE') {
    const maxForwards = decrementedMaxForwards(ownHeader(request.headers, 'max-forwards'));
    if (maxForwards !== undefined) headers['max-forwards'] = maxForwards;
  }
  if (ownHeader(request.headers, 'transfer-encoding') !== undefined) {
    // The body is re-chunked on the way out; a Content-Length cannot accompany it (the parser refuses both).
    delete headers['content-length'];
    headers['transfer-encoding'] = 'chunked';
  }
  headers.host = target.host;
  if (masked) for (const name in headers) masked[name] = maskIfCredential(name, headers[name]!);

  const ruleRefusal = applyHeaderRules(compiled, scope, headers, masked);
  if (ruleRefusal) return ruleRefusal;
  const plan: ForwardingPlan = {
    ok: true,
    target,
    targetUrl: rendered.url,
    maskedTargetUrl: rendered.maskedUrl,
    headers,
    traceparent,
  };
  if (masked) plan.maskedHeaders = masked;
  return plan;
}

function copyEndToEndHeaders(
  incoming: IncomingHeaders,
  headers: OutgoingHeaders,
  drop: string | undefined,
): void {
  const connectionListed = connectionListedHeaders(incoming.connection);
  for (const name in incoming) {
    const value = incoming[name];
    if (value === undefined || GATEWAY_SET.has(name) || name === 'x-forwarded-for') continue;
    if (isHopByHop(name, connectionListed) || name === drop) continue;
    headers[name] = Array.isArray(value) ? [...value] : value;
  }
}

/** `Add` appends (keeping earlier values of the name), `Overwrite` replaces, `Remove` deletes; in order. */
function applyHeaderRules(
  compiled: CompiledPassthroughEntry,
  scope: RenderScope,
  headers: OutgoingHeaders,
  masked: OutgoingHeaders | undefined,
): ForwardingRefusal | undefined {
  const rules = compiled.headers;
  for (let index = 0; index < rules.length; index++) {
    const rule = rules[index]!;
    const name = rule.lowerName;
    if (rule.action === 'Remove' || rule.value === undefined) {
      delete headers[name];
      if (masked) delete masked[name];
      continue;
    }
    let value: string;
    let maskedValue: string;
    const text = compiled.entry.headers[index]?.value;
    if (text !== undefined && !text.includes('{{')) {
      // Literal text is the value as written (the compiler has already checked its characters).
      value = maskedValue = text;
    } else {
      const rendered = rule.value.render(scope);
      if (!rendered.ok) return refusal(rendered.error);
      ({ value, maskedValue } = rendered);
    }
    const append = rule.action !== 'Overwrite' && Object.hasOwn(headers, name);
    headers[name] = append ? [...asList(headers[name]!), value] : value;
    if (masked) {
      const shown = isCredentialHeader(name) ? MASK : maskedValue;
      if (!append) masked[name] = shown;
      else masked[name] = [...(Object.hasOwn(masked, name) ? asList(masked[name]!) : []), shown];
    }
  }
  return undefined;
}

function ownHeader(headers: IncomingHeaders, name: string): string | string[] | undefined {
  return Object.hasOwn(headers, name) ? headers[name] : undefined;
}

function asList(value: string | string[]): string[] {
  return Array.isArray(value) ? value : [value];
}

function maskIfCredential(name: string, value: string | string[]): string | string[] {
  if (!isCredentialHeader(name)) return Array.isArray(value) ? [...value] : value;
  return Array.isArray(value) ? value.map(() => MASK) : MASK;
}

function refusal(error: RenderError): ForwardingRefusal {
  return {
    ok: false,
    status: error.kind === 'missing-reference' ? 503 : 400,
    kind: error.kind,
    place: error.place,
    message: error.message,
    ...(error.reference === undefined ? {} : { reference: error.reference }),
  };
}
