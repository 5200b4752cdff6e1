import type { Logger } from '../../core/logging/logger.js';
import type { ConfigStore } from '../../core/config-store/config-store.js';
import type { SecretBox } from '../../core/config-store/secret-box.js';
import type { Tenant } from './tenant.js';

/** What the management services need from a tenant. */
export interface ManagementDeps {
  store: ConfigStore;
  secretBox: SecretBox;
  now: () => Date;
  logger: Logger;
}

export function managementDeps(tenant: Tenant): ManagementDeps {
  return { store: tenant.configStore, secretBox: tenant.secretBox, now: tenant.now, logger: tenant.logger };
}
