import type { SettingsSnapshot } from '../../core/settings/settings.js';
import type { Tenant } from './tenant.js';

/** What management route factories receive for one Control Panel start. */
export interface ManagementContext {
  tenant: Tenant;
  /** Settings in force since this Control Panel start. */
  settings: SettingsSnapshot;
}
