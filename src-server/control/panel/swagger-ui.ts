import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import express, { type Router } from 'express';

/**
 * Swagger UI's static files. Resolved, not imported: the package's entry module loads its 1.4 MB browser bundle
 * into Node, which cost a quarter of a second of every start.
 */
function getAbsoluteFSPath(): string {
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

const INITIALIZER = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: '/swagger/v1/swagger.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    docExpansion: 'none',
    persistAuthorization: false,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'StandaloneLayout',
  });
};
`;

/** Swagger UI from the installed package (no CDN), pointed at the generated document. */
export function swaggerUi(getDocument: (origin: string) => Promise<unknown>): Router {
  const router = express.Router();
  router.get('/swagger/v1/swagger.json', async (req, res) => {
    // The Host header passed the host guard, so it names this Control Panel.
    const document = await getDocument(`${req.protocol}://${req.headers.host ?? 'localhost'}`);
    res.setHeader('Cache-Control', 'no-store');
    res.json(document);
  });
  router.get(['/swagger', '/swagger/'], (_req, res) => res.redirect(302, '/swagger/index.html'));
  router.get('/swagger/swagger-initializer.js', (_req, res) => {
    res.type('application/javascript').setHeader('Cache-Control', 'no-store');
    res.send(INITIALIZER);
  });
  router.use(
    '/swagger',
    express.static(getAbsoluteFSPath(), { index: false, fallthrough: true, maxAge: '1h' }),
  );
  return router;
}
