import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode, statusOf, type HttpErrorCode } from '../contracts/error-codes.js';
import { newTraceId, problemTitleFor, problemTypeFor, PROBLEM_CONTENT_TYPE } from '../http/problem.js';

/**
 * The paths every listener (gateway listeners and the Control Panel) answers itself, for load balancers and
 * orchestrators. Unauthenticated, and nothing secret in them. No API may serve them (see `reservedPathOf`).
 */
export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';

export interface HealthCheck {
  status: 'pass' | 'fail';
  /** Why it fails, in words for an operator; never a value or an internal message. */
  detail?: string;
}

/** `storage`, `runtime`, `draining`, … → their outcome; the listener is ready when none fails. */
export type Readiness = Record<string, HealthCheck>;

export interface HealthProbe {
  /** Shown in both answers: which instance (and worker) answered. */
  instance: string;
  readiness: () => Promise<Readiness>;
}

/**
 * Answers `/healthz` (the process is alive: always 200 while it can answer at all) and `/readyz` (200 when
 * every check passes, else 503 problem+json with `checks`). Returns false for every other path. The query string
 * is ignored; only GET and HEAD are served there (405 otherwise).
 */
export function answerHealthRequest(req: IncomingMessage, res: ServerResponse, probe: HealthProbe): boolean {
  const path = pathOf(req.url ?? '');
  if (path !== HEALTH_PATH && path !== READY_PATH) return false;
  const method = req.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') {
    sendProblem(req, res, ErrorCode.GH_ERR_METHOD_NOT_ALLOWED, `${path} answers GET and HEAD.`, path, {}, [
      ['Allow', 'GET, HEAD'],
    ]);
    return true;
  }
  if (path === HEALTH_PATH) {
    send(req, res, 200, 'application/json; charset=utf-8', { status: 'alive', instance: probe.instance });
    return true;
  }
  probe.readiness().then(
    (checks) => answerReadiness(req, res, probe.instance, checks),
    (error: unknown) =>
      answerReadiness(req, res, probe.instance, {
        readiness: { status: 'fail', detail: `the checks failed: ${(error as Error).name}` },
      }),
  );
  return true;
}

function answerReadiness(
  req: IncomingMessage,
  res: ServerResponse,
  instance: string,
  checks: Readiness,
): void {
  const failing = Object.entries(checks).filter(([, check]) => check.status === 'fail');
  if (failing.length === 0) {
    send(req, res, 200, 'application/json; charset=utf-8', { status: 'ready', instance, checks });
    return;
  }
  const detail = `Not ready: ${failing.map(([name, check]) => `${name} (${check.detail ?? 'failing'})`).join(', ')}.`;
  sendProblem(req, res, ErrorCode.GH_ERR_NOT_READY, detail, READY_PATH, { instance, checks });
}

function sendProblem(
  req: IncomingMessage,
  res: ServerResponse,
  code: HttpErrorCode,
  detail: string,
  instance: string,
  extensions: Record<string, unknown>,
  headers: [string, string][] = [],
): void {
  const status = statusOf(code);
  for (const [name, value] of headers) res.setHeader(name, value);
  send(req, res, status, PROBLEM_CONTENT_TYPE, {
    type: problemTypeFor(status),
    title: problemTitleFor(status),
    status,
    code,
    detail,
    instance,
    traceId: newTraceId(),
    ...extensions,
  });
}

function send(req: IncomingMessage, res: ServerResponse, status: number, type: string, body: unknown): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  });
  res.end(req.method === 'HEAD' ? undefined : text);
}

function pathOf(url: string): string {
  const end = url.indexOf('?');
  return end === -1 ? url : url.slice(0, end);
}
