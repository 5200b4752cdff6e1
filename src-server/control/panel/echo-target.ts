import { Router, type Request } from 'express';
import { notFound } from '../../core/http/problem.js';
import { sendProblem } from '../../core/http/send.js';
import { answerWithEcho } from '../../core/net/echo.js';

export const ECHO_PATH = '/echo';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

function fromThisComputer(req: Request): boolean {
  return LOOPBACK.has(req.socket.remoteAddress ?? '');
}

/**
 * The built-in echo target at `/echo` and below: what a passthrough forwards, answered as JSON, so a first
 * passthrough works without a backend (Getting started points one here). Only for callers on this computer
 * (the gateway among them): to anyone else it does not exist.
 */
export function echoTarget(): Router {
  const router = Router();
  router.all([ECHO_PATH, `${ECHO_PATH}/*path`], (req, res) => {
    if (!fromThisComputer(req)) {
      sendProblem(req, res, notFound(`No route matches ${req.method} ${req.path}.`));
      return;
    }
    answerWithEcho(req, res);
  });
  return router;
}
