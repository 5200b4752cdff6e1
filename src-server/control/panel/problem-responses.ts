import { problemTitleFor } from '../../core/http/problem.js';
import type { AnyRoute } from '../http/route.js';

type JsonObject = Record<string, unknown>;

/** What each problem status means for a management operation, as the document states it. */
const REASONS: Record<number, string> = {
  400: 'A path or query parameter, or the body, is not valid; `errors` names each one.',
  401: 'No valid bearer token: missing, expired, or not from a trusted issuer.',
  403: "The caller's roles do not grant this operation's activity.",
  404: 'Nothing has this id.',
  409: 'The change conflicts with the current state; the detail says how.',
  413: 'The request body is larger than this operation accepts.',
  415: "The request body's media type is not one this operation accepts.",
  421: 'The Host header names a host this Control Panel does not serve (a guard against DNS rebinding).',
  422: 'The change is valid but cannot be applied; the detail says why.',
  431: "The request line and headers are larger than the server reads (Node's 16 KiB); answered before any route runs.",
  500: 'An unexpected error; the trace id finds it in the server log.',
  503: 'A store this operation uses is not available (the database server unreachable, a damaged database file, the monitoring store closing); nothing was changed, the server log says why, and a retry may succeed.',
};

/**
 * The problem statuses the framework itself can answer for a route, whatever its handler does: an oversized
 * request head, the Host guard, unexpected errors and an unavailable database (every audited call writes to it)
 * everywhere, validation where a parameter or body is read, authentication and the role check unless the route
 * is anonymous, size and media type where a body is read.
 */
export function frameworkProblems(route: AnyRoute): number[] {
  const statuses = [421, 431, 500, 503];
  if (route.params || route.query || route.body) statuses.push(400);
  if (!route.anonymous) statuses.push(401, 403);
  if (route.body) statuses.push(413, 415);
  return statuses;
}

export function problemDescription(status: number): string {
  return REASONS[status] ?? problemTitleFor(status);
}

/** `Not Found` → `NotFound`: the name of a status's entry in `components.responses`. */
export function problemResponseName(status: number): string {
  return problemTitleFor(status).replace(/\s+/g, '');
}

export function problemMediaType(status: number): JsonObject {
  const schema = status === 400 ? 'ValidationProblemDetails' : 'ProblemDetails';
  return { 'application/problem+json': { schema: { $ref: `#/components/schemas/${schema}` } } };
}

/** The shared response of a problem status (`components.responses`). */
export function problemResponse(status: number): JsonObject {
  return {
    description: problemDescription(status),
    ...(status === 401
      ? {
          headers: {
            'WWW-Authenticate': {
              description: 'The Bearer challenge (RFC 6750), with the reason in `error_description`.',
              schema: { type: 'string' },
            },
          },
        }
      : {}),
    content: problemMediaType(status),
  };
}
