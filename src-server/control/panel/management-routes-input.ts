import type { SyncRuns } from '../audit/sources/sync-runs.js';
import type { VerificationRuns } from '../audit/verification-runs.js';
import type { TokenIssuer } from '../identity/token-issuer.js';
import type { SettingsSnapshot } from '../../core/settings/settings.js';
import type { TenantSettingsDeps } from '../settings/tenant-settings-routes.js';
import type { TryItGateway } from '../passthroughs/try-it/try-it-routes.js';
import type { Tenant } from '../common/tenant.js';
import type { ExternalSignIn } from '../identity/sign-in-options-route.js';
import type { ApiImportsOnFirstUse } from '../apis/api-imports-on-first-use.js';
import type { InstanceRegistry } from '../../core/instance/instance-registry.js';
import type { GatewayListeners } from '../environments/agent-group-routes.js';

/** What the management routes of one Control Panel start are built from. */
export interface ManagementRoutesInput {
  tenant: Tenant;
  settings: SettingsSnapshot;
  tokenIssuer: TokenIssuer;
  tenantSettings: TenantSettingsDeps;
  gateway: TryItGateway & GatewayListeners;
  /** The external identity provider's sign-in for the console, when one is configured. */
  externalSignIn: () => Promise<ExternalSignIn | undefined>;
  /** The API import worker and the imports in progress (kept across Control Panel restarts), made at first use. */
  imports: ApiImportsOnFirstUse;
  /** The audit syncs running in this server (kept across Control Panel restarts). */
  syncRuns: SyncRuns;
  /** The audit verifications running in this server (kept across Control Panel restarts). */
  verificationRuns: VerificationRuns;
  /** The instances sharing the database. */
  instances: Pick<InstanceRegistry, 'list' | 'name'>;
}
