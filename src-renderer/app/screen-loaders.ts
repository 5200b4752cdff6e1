import type { ComponentType } from 'react';

type ScreenModule = { default: ComponentType };
export type ScreenLoader = () => Promise<ScreenModule>;

/** One import per chunk, shared by the router and the start-up preload; a failed one may be tried again. */
function once(load: ScreenLoader): ScreenLoader {
  let loading: Promise<ScreenModule> | undefined;
  return () => {
    if (loading) return loading;
    const promise = load();
    loading = promise;
    promise.then(
      (module) => {
        // The fields React's `use` reads: a chunk that has arrived renders at once, without suspending.
        // (Object.assign returns the promise itself, already handled here.)
        void Object.assign(promise, { status: 'fulfilled', value: module });
      },
      () => {
        loading = undefined;
      },
    );
    return promise;
  };
}

/** Each screen is its own chunk, keyed by the path of its section. */
export const SCREEN_LOADERS = {
  '/apis': once(() => import('../screens/apis/ApisScreen.js')),
  '/environment-variables': once(
    () => import('../screens/environment-variables/EnvironmentVariablesScreen.js'),
  ),
  '/api-policies': once(() => import('../screens/api-policies/ApiPoliciesScreen.js')),
  '/api-monitoring': once(() => import('../screens/api-monitoring/ApiMonitoringScreen.js')),
  '/audit-log': once(() => import('../screens/audit-log/AuditLogScreen.js')),
  '/tenant-settings': once(() => import('../screens/tenant-settings/TenantSettingsScreen.js')),
  '/getting-started': once(() => import('../screens/getting-started/GettingStartedScreen.js')),
} as const satisfies Record<string, ScreenLoader>;

export type ScreenPath = keyof typeof SCREEN_LOADERS;

export const HOME_PATH: ScreenPath = '/apis';

export function isHomePath(pathname: string): boolean {
  return pathname === '/' || pathname === '';
}

/** The section a path belongs to; sub-paths (`/apis/<id>`) belong to their section. */
export function sectionOf(pathname: string): ScreenPath | undefined {
  const path = pathname.replace(/\/+$/, '') || '/';
  return (Object.keys(SCREEN_LOADERS) as ScreenPath[]).find(
    (section) => path === section || path.startsWith(`${section}/`),
  );
}

/**
 * Starts loading the chunk of the screen at `pathname` (the home screen's at `/`) without rendering it, so it
 * arrives while the session is still being checked instead of after. Settles once it is there, or failed: a
 * failure is reported when the screen itself is shown (and its import tried again).
 */
export function preloadScreen(pathname: string): Promise<void> {
  const section = isHomePath(pathname) ? HOME_PATH : sectionOf(pathname);
  if (!section) return Promise.resolve();
  return SCREEN_LOADERS[section]().then(
    () => undefined,
    () => undefined,
  );
}
