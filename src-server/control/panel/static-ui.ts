import { existsSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import express, { type Router } from 'express';

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Gatehouse</title></head>
<body><main><h1>Gatehouse</h1><p>The console has not been built. Run <code>npm run build</code>, then reload.
The management API and <a href="/swagger/index.html">Swagger UI</a> work without it.</p></main></body></html>`;

/** Build output under `assets/` carries a content hash in its name: a changed file gets a new name. */
const HASHED_ASSETS = `${sep}assets${sep}`;
const FOREVER = 'public, max-age=31536000, immutable';

/**
 * The console's built files, with the single-page-app fallback to index.html for client-side routes. Hashed
 * assets are cached for good; index.html is revalidated every time, so an upgraded app never loads a stale page
 * that names assets the new build no longer has.
 */
export function staticUi(uiDirOption: string | undefined): Router {
  const router = express.Router();
  const uiDir = uiDirOption ? resolve(uiDirOption) : undefined;
  const index = uiDir ? join(uiDir, 'index.html') : undefined;
  if (uiDir && index && existsSync(index)) {
    // The install folder itself may sit under a dot-folder; only request paths are checked for dotfiles.
    router.use(
      express.static(uiDir, {
        index: false,
        maxAge: '1h',
        setHeaders: (res, path) => {
          if (path.startsWith(join(uiDir, HASHED_ASSETS))) res.setHeader('Cache-Control', FOREVER);
          else if (path === index) res.setHeader('Cache-Control', 'no-cache');
        },
      }),
    );
    router.get(/^\/(?!api\/|swagger|oauth2\/|\.well-known\/|metrics).*/, (req, res, next) => {
      if (!req.accepts('html')) {
        next();
        return;
      }
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(index, { dotfiles: 'allow' });
    });
  } else {
    router.get('/', (_req, res) => {
      res.type('html').send(NOT_BUILT);
    });
  }
  return router;
}
