import type { Tenant } from '../common/tenant.js';
import type { ApiImports } from './api-imports.js';

/** The server's `ApiImports`, made at its first use: the Control Panel's first request under /api/v1/apis. */
export interface ApiImportsOnFirstUse {
  get: () => Promise<ApiImports>;
  /** Closes them if they were made (waits for their making if it is under way). */
  close: () => Promise<void>;
}

/**
 * The import machinery's modules (the description readers' schemas, the outbound address policy) load at the
 * first import request rather than at every start, which never needs them before its first answer (bench:audit's
 * cold start): `import()`, as the management routes that use them (control/panel/management-routes.ts).
 */
export function apiImportsOnFirstUse(tenant: Tenant): ApiImportsOnFirstUse {
  let made: Promise<ApiImports> | undefined;
  return {
    get: () => {
      made ??= import('./api-imports.js').then(({ createApiImports }) => createApiImports(tenant));
      // A module that did not load is loaded again by the next request.
      made.catch(() => (made = undefined));
      return made;
    },
    async close() {
      const imports = await made?.catch(() => undefined);
      await imports?.close();
    },
  };
}
