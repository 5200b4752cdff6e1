import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type SvgIcon from '@mui/material/SvgIcon';
import ApiIcon from '@mui/icons-material/Api';
import DataObjectIcon from '@mui/icons-material/DataObject';
import PolicyIcon from '@mui/icons-material/Policy';
import MonitorHeartIcon from '@mui/icons-material/MonitorHeart';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import TuneIcon from '@mui/icons-material/Tune';

export interface ScreenRoute {
  path: string;
  label: string;
  icon: typeof SvgIcon;
  Screen: LazyExoticComponent<ComponentType>;
}

/** The navigation, in order; each screen is its own chunk, loaded when first shown. */
export const SCREEN_ROUTES: readonly ScreenRoute[] = [
  {
    path: '/apis',
    label: 'APIs',
    icon: ApiIcon,
    Screen: lazy(() => import('../screens/apis/ApisScreen.js')),
  },
  {
    path: '/environment-variables',
    label: 'Environment variables',
    icon: DataObjectIcon,
    Screen: lazy(() => import('../screens/environment-variables/EnvironmentVariablesScreen.js')),
  },
  {
    path: '/api-policies',
    label: 'API policies',
    icon: PolicyIcon,
    Screen: lazy(() => import('../screens/api-policies/ApiPoliciesScreen.js')),
  },
  {
    path: '/api-monitoring',
    label: 'API monitoring',
    icon: MonitorHeartIcon,
    Screen: lazy(() => import('../screens/api-monitoring/ApiMonitoringScreen.js')),
  },
  {
    path: '/audit-log',
    label: 'Audit log',
    icon: ReceiptLongIcon,
    Screen: lazy(() => import('../screens/audit-log/AuditLogScreen.js')),
  },
  {
    path: '/tenant-settings',
    label: 'Tenant settings',
    icon: TuneIcon,
    Screen: lazy(() => import('../screens/tenant-settings/TenantSettingsScreen.js')),
  },
];

export const HOME_PATH = '/apis';
export const NotFoundScreen = lazy(() => import('../screens/not-found/NotFoundScreen.js'));

/** The screen for a path; sub-paths (`/apis/<id>`) belong to their section. */
export function matchScreen(pathname: string): ScreenRoute | undefined {
  const path = pathname.replace(/\/+$/, '') || '/';
  return SCREEN_ROUTES.find((route) => path === route.path || path.startsWith(`${route.path}/`));
}
