import { Router, type Request, type Response } from 'express';
import type { Logger } from '../../core/logging/logger.js';
import { rolesAllow } from '../../core/activities/roles.js';
import type { Principal } from '../../core/http/principal.js';
import { forbidden, methodNotAllowed } from '../../core/http/problem.js';
import { sendProblem, toHttpProblem } from '../../core/http/send.js';
import type { MonitoringMetrics } from '../../core/monitoring/metrics/monitoring-metrics.js';

export const METRICS_PATH = '/metrics';

export interface MetricsRouterOptions {
  metrics: Pick<MonitoringMetrics, 'exposition' | 'contentType'>;
  /** `Monitoring:MetricsRequireAuth`: a bearer token granting `Monitoring.View` is then required. */
  requireAuth: boolean;
  /** `ControlPanel:Host`: open metrics on a non-loopback address are worth a warning. */
  controlPanelHost: string;
  /** The Control Panel's token check (throws a 401 problem). */
  authenticate: (req: Request) => Promise<Principal>;
  logger: Logger;
}

/**
 * `GET /metrics`, the Prometheus text exposition. Not a management API route: no JSON, no audit entry, not in
 * the OpenAPI document. Open by default (scrapers rarely carry tokens; the Control Panel listens on loopback
 * and the Host guard still applies); `Monitoring:MetricsRequireAuth` closes it.
 */
export function metricsRouter(options: MetricsRouterOptions): Router {
  if (!options.requireAuth && !isLoopbackHost(options.controlPanelHost)) {
    options.logger.warn(
      { host: options.controlPanelHost },
      'GET /metrics is open on a non-loopback address; set Monitoring:MetricsRequireAuth=true to require a token',
    );
  }
  const router = Router();
  router.get(METRICS_PATH, (req, res) => {
    void serveMetrics(options, req, res);
  });
  router.all(METRICS_PATH, (req, res) => sendProblem(req, res, methodNotAllowed(['GET', 'HEAD'])));
  return router;
}

async function serveMetrics(options: MetricsRouterOptions, req: Request, res: Response): Promise<void> {
  try {
    if (options.requireAuth) {
      const principal = await options.authenticate(req);
      if (!rolesAllow(principal.roles, 'Monitoring.View')) {
        throw forbidden("The caller's roles do not grant the activity Monitoring.View.");
      }
    }
    const text = await options.metrics.exposition();
    res.status(200);
    res.setHeader('Content-Type', options.metrics.contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.end(req.method === 'HEAD' ? undefined : text);
  } catch (error) {
    sendProblem(
      req,
      res,
      toHttpProblem(error, (unexpected) =>
        options.logger.error({ err: unexpected, traceId: res.locals.traceId }, 'metrics request failed'),
      ),
    );
  }
}

/** Whether a bind address only accepts connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, '');
  return name === 'localhost' || name === '::1' || /^127\.\d+\.\d+\.\d+$/.test(name);
}
