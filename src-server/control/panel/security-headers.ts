import type { RequestHandler } from 'express';

/**
 * Strict headers for everything the Control Panel serves; the console needs no inline script, and no remote
 * origin but the external identity provider's it signs in with (`connectSources`: its token endpoint).
 */
export function securityHeaders(connectSources: readonly string[] = []): RequestHandler {
  const connect = ["'self'", ...connectSources].join(' ');
  const policy = (swagger: boolean) =>
    [
      "default-src 'self'",
      "script-src 'self'",
      // MUI (emotion) and Swagger UI inject style elements at run time.
      "style-src 'self' 'unsafe-inline'",
      `img-src 'self' data:${swagger ? ' https://validator.swagger.io' : ''}`,
      "font-src 'self' data:",
      `connect-src ${connect}`,
      "frame-ancestors 'none'",
      "base-uri 'none'",
      "form-action 'self'",
      "object-src 'none'",
    ].join('; ');
  const forSwagger = policy(true);
  const forTheRest = policy(false);
  return (req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    res.setHeader('Content-Security-Policy', req.path.startsWith('/swagger') ? forSwagger : forTheRest);
    next();
  };
}
