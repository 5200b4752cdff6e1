import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { newTraceId } from '../../core/http/problem.js';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;

/**
 * Gives each request a trace id (continuing an incoming W3C traceparent) and logs one line when it ends. Only the
 * path is logged: query strings and headers may carry tokens or filter values that do not belong in logs.
 */
export function requestContext(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = TRACEPARENT.exec(String(req.headers.traceparent ?? ''));
    const traceId = incoming ? `00-${incoming[1]}-${incoming[2]}-00` : newTraceId();
    res.locals.traceId = traceId;
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info(
        {
          method: req.method,
          path: req.path,
          status: res.statusCode,
          durationMs: Math.round(durationMs * 10) / 10,
          traceId,
        },
        'request',
      );
    });
    next();
  };
}
