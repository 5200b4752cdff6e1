import express, { type IRouter, type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { getActivity } from '../../core/activities/activities.js';
import { rolesAllow } from '../../core/activities/roles.js';
import type { RequestAuditRecord } from '../../core/audit/request-audit-record.js';
import type { Principal } from '../../core/http/principal.js';
import { forbidden, methodNotAllowed, type HttpProblem } from '../../core/http/problem.js';
import { parseQuery } from '../../core/http/query-params.js';
import { sharedUntilFailure } from '../../core/async/shared-until-failure.js';
import { bodyReader } from './read-body.js';
import { RESPONSE_WRITTEN, type AnyRoute, type AuditAnnotations } from './route.js';
import { assertRoutesUnder, isUnderPrefixes, type LazyRouteGroup } from './route-group.js';
import { sendJson, sendProblem, toHttpProblem } from '../../core/http/send.js';
import { zodErrorsToProblem } from '../../core/http/zod-problem.js';

export interface RouteServices {
  /** Throws a 401 HttpProblem when the request carries no valid bearer token. */
  authenticate: (req: Request) => Promise<Principal>;
  /** Resolves once the entry is durable. */
  recordAudit: (record: RequestAuditRecord) => Promise<void>;
  logger: Logger;
}

function rawSearch(req: Request): string {
  const index = req.originalUrl.indexOf('?');
  return index === -1 ? '' : req.originalUrl.slice(index + 1);
}

function asRecord(value: unknown): Record<string, unknown> {
  if (value && typeof value === 'object' && !Array.isArray(value) && !Buffer.isBuffer(value)) {
    return value as Record<string, unknown>;
  }
  return {};
}

function createHandler(route: AnyRoute, services: RouteServices) {
  const activity = getActivity(route.activity);
  const audited = route.audited ?? !activity.readOnly;
  const readBody = bodyReader(route.body);

  return async (req: Request, res: Response): Promise<void> => {
    const traceId = String(res.locals.traceId ?? '');
    const annotations: AuditAnnotations = { resources: [] };
    let principal: Principal | undefined;
    let parameters: Record<string, unknown> = { ...req.params };
    let statusCode: number;
    let problem: HttpProblem | undefined;
    let result: Awaited<ReturnType<AnyRoute['handler']>> | undefined;

    try {
      if (!route.anonymous) {
        principal = await services.authenticate(req);
        if (!rolesAllow(principal.roles, route.activity)) {
          throw forbidden(`The caller's roles do not grant the activity ${route.activity}.`);
        }
      }
      let params: unknown = req.params;
      if (route.params) {
        const parsed = route.params.safeParse(req.params);
        if (!parsed.success) throw zodErrorsToProblem(parsed.error, 'path');
        params = parsed.data;
      }
      const query = route.query ? parseQuery(route.query, rawSearch(req)) : {};
      parameters = { ...asRecord(params), ...definedOnly(query) };
      const body = await readBody(req, res);
      parameters = { ...parameters, ...asRecord(body) };
      result = await route.handler({ req, res, params, query, body, principal, audit: annotations, traceId });
      statusCode = result === RESPONSE_WRITTEN ? res.statusCode : (result.status ?? 200);
    } catch (error) {
      problem = toHttpProblem(error, (unexpected) =>
        services.logger.error(
          { err: unexpected, traceId, route: `${route.method} ${route.path}` },
          'request failed',
        ),
      );
      statusCode = problem.status;
    }

    if (audited) {
      try {
        await services.recordAudit({
          activity,
          principal,
          parameters: { ...parameters, ...annotations.extraParameters },
          statusCode,
          annotations,
        });
      } catch (error) {
        services.logger.error(
          { err: error, traceId, activity: activity.name },
          'audit entry could not be written',
        );
        if (!problem && result !== RESPONSE_WRITTEN) {
          problem = toHttpProblem(error, () => undefined);
        }
      }
    }

    if (problem) sendProblem(req, res, problem);
    else if (result && result !== RESPONSE_WRITTEN)
      sendJson(req, res, result.status ?? 200, result.body, result.headers);
  };
}

function definedOnly(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}

/** Registers the routes, plus a 405 answer with `Allow` for the other methods of each path. */
export function mountRoutes(app: IRouter, routes: readonly AnyRoute[], services: RouteServices): void {
  const methodsByPath = new Map<string, Set<string>>();
  for (const route of routes) {
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    app[method](route.path, createHandler(route, services));
    const methods = methodsByPath.get(route.path) ?? new Set<string>();
    methods.add(route.method);
    if (route.method === 'GET') methods.add('HEAD');
    methodsByPath.set(route.path, methods);
  }
  // `route(path).all()`, not `app.all(path)`: Express's `app.all` registers the handler once per HTTP method it
  // knows (34), each a layer with its own compiled path; for ~150 paths that was ~30 ms of every start.
  for (const [path, methods] of methodsByPath) {
    const allowed = [...methods];
    app.route(path).all((req, res) => sendProblem(req, res, methodNotAllowed(allowed)));
  }
}

/**
 * Registers each group as a router built at the first request under its prefixes, then `routes` on `app` itself.
 * The groups' prefixes keep their paths apart from each other's and from `routes`' (checked here and as each
 * group loads), so every request is answered as one router holding all the routes would answer it.
 */
export function mountRouteGroups(
  app: IRouter,
  groups: readonly LazyRouteGroup[],
  routes: readonly AnyRoute[],
  services: RouteServices,
): void {
  for (const group of groups) {
    const overlapping = groups.find(
      (other) => other !== group && group.prefixes.some((prefix) => isUnderPrefixes(prefix, other.prefixes)),
    );
    if (overlapping) throw new Error(`Route groups ${group.name} and ${overlapping.name} share a prefix.`);
  }
  assertRoutesUnder(routes, undefined, groups);
  for (const group of groups) {
    const router = sharedUntilFailure(async () => {
      const groupRoutes = await group.load();
      assertRoutesUnder(groupRoutes, group, groups);
      const built = express.Router();
      mountRoutes(built, groupRoutes, services);
      return built;
    });
    app.use((req: Request, res: Response, next: NextFunction) => {
      if (!isUnderPrefixes(req.path, group.prefixes)) {
        next();
        return;
      }
      router().then((loaded) => {
        loaded(req, res, next);
      }, next);
    });
  }
  mountRoutes(app, routes, services);
}
