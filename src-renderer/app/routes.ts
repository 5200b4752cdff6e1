import { createElement, lazy, use, type ComponentType } from 'react';
import type SvgIcon from '@mui/material/SvgIcon';
import ApiIcon from '@mui/icons-material/Api';
import DataObjectIcon from '@mui/icons-material/DataObject';
import PolicyIcon from '@mui/icons-material/Policy';
import MonitorHeartIcon from '@mui/icons-material/MonitorHeart';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import TuneIcon from '@mui/icons-material/Tune';
import RocketLaunchIcon from '@mui/icons-material/RocketLaunch';
import { SCREEN_LOADERS, sectionOf, type ScreenLoader, type ScreenPath } from './screen-loaders.js';

export { HOME_PATH, isHomePath } from './screen-loaders.js';

export interface ScreenRoute {
  path: ScreenPath;
  label: string;
  icon: typeof SvgIcon;
  /** Suspends while its chunk loads. */
  Screen: ComponentType;
}

/**
 * Like React.lazy, except that a chunk already there (preloaded at start-up) renders without suspending: lazy
 * suspends once regardless, and the fallback it commits holds the screen back by React's 300 ms reveal throttle.
 */
function lazyScreen(load: ScreenLoader): ComponentType {
  return function LazyScreen() {
    return createElement(use(load()).default);
  };
}

function route(path: ScreenPath, label: string, icon: typeof SvgIcon): ScreenRoute {
  return { path, label, icon, Screen: lazyScreen(SCREEN_LOADERS[path]) };
}

/** The navigation, in order; each screen is its own chunk, loaded when first shown (or preloaded at start-up). */
export const SCREEN_ROUTES: readonly ScreenRoute[] = [
  route('/apis', 'APIs', ApiIcon),
  route('/environment-variables', 'Environment variables', DataObjectIcon),
  route('/api-policies', 'API policies', PolicyIcon),
  route('/api-monitoring', 'API monitoring', MonitorHeartIcon),
  route('/audit-log', 'Audit log', ReceiptLongIcon),
  route('/tenant-settings', 'Tenant settings', TuneIcon),
  route('/getting-started', 'Getting started', RocketLaunchIcon),
];

export const NotFoundScreen = lazy(() => import('../screens/not-found/NotFoundScreen.js'));

/** The screen for a path; sub-paths (`/apis/<id>`) belong to their section. */
export function matchScreen(pathname: string): ScreenRoute | undefined {
  const section = sectionOf(pathname);
  return SCREEN_ROUTES.find((screen) => screen.path === section);
}
