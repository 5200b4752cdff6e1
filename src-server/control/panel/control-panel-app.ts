import express, { type Express, type Router } from 'express';
import type { Logger } from 'pino';
import { mountRouteGroups, type RouteServices } from '../http/mount-routes.js';
import { notFound } from '../../core/http/problem.js';
import type { AnyRoute } from '../http/route.js';
import type { LazyRouteGroup } from '../http/route-group.js';
import { sendProblem, toHttpProblem } from '../../core/http/send.js';
import { hostGuard } from './host-guard.js';
import { requestContext } from './request-context.js';
import { securityHeaders } from './security-headers.js';
import { staticUi } from './static-ui.js';
import { swaggerUi } from './swagger-ui.js';
import { answerHealthRequest, type HealthProbe } from '../../core/health/health-endpoints.js';
import { echoTarget } from './echo-target.js';

export interface ControlPanelAppOptions {
  /** Built at the first request under their prefixes. */
  routeGroups: readonly LazyRouteGroup[];
  /** Built at start (the first answer a start waits for is one of them). */
  routes: readonly AnyRoute[];
  services: RouteServices;
  logger: Logger;
  boundHost: string;
  allowedHosts: readonly string[];
  uiDir: string | undefined;
  /** The OpenAPI document as served from `origin` (`http://127.0.0.1:4700`). */
  managementDocument: (origin: string) => Promise<unknown>;
  /** Routers mounted before the console (e.g. /metrics). */
  extraRouters?: Router[];
  /** Origins the console may call besides its own (the external identity provider it signs in with). */
  connectSources?: readonly string[];
  /** `/healthz` and `/readyz`, answered for any Host (load balancers probe by address), before anything else. */
  health: HealthProbe;
}

/** The Control Panel's Express app: identity provider, management API, Swagger UI and the console. */
export function createControlPanelApp(options: ControlPanelAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', false);
  app.use((req, res, next) => {
    if (!answerHealthRequest(req, res, options.health)) next();
  });
  app.use(requestContext(options.logger));
  app.use(hostGuard(options.boundHost, options.allowedHosts));
  app.use(securityHeaders(options.connectSources));
  app.use(echoTarget());
  mountRouteGroups(app, options.routeGroups, options.routes, options.services);
  app.use(swaggerUi(options.managementDocument));
  for (const router of options.extraRouters ?? []) app.use(router);
  app.use(staticUi(options.uiDir));
  app.use((req, res) => sendProblem(req, res, notFound(`No route matches ${req.method} ${req.path}.`)));
  app.use((error: unknown, req: express.Request, res: express.Response, _next: express.NextFunction) => {
    sendProblem(
      req,
      res,
      toHttpProblem(error, (unexpected) =>
        options.logger.error({ err: unexpected, traceId: res.locals.traceId }, 'request failed'),
      ),
    );
  });
  return app;
}
