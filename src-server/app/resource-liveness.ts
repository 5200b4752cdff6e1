import type { AuditResource } from '../core/audit/audit-entry.js';
import type { ConfigData } from '../core/model/config-model.js';
import type { ConfigStore } from '../core/config-store/config-store.js';

type CollectionName = {
  [K in keyof ConfigData]: ConfigData[K] extends { id: string }[] ? K : never;
}[keyof ConfigData];

/** Audit resource type → the store collection whose records carry that `id`. */
const COLLECTION_OF_TYPE: Record<string, CollectionName> = {
  AppRegistration: 'appRegistrations',
  Api: 'apis',
  Passthrough: 'passthroughs',
  Environment: 'environments',
  AgentGroup: 'agentGroups',
  EnvironmentVariable: 'environmentVariables',
  Policy: 'policies',
  ApiKey: 'apiKeys',
};

/**
 * Whether an audited resource still exists, for retention: configuration history is kept while its resource
 * lives. Types without a collection (settings, the tenant) always live.
 */
export function isResourceLive(store: ConfigStore, resource: AuditResource): boolean {
  const collection = COLLECTION_OF_TYPE[resource.type];
  if (!collection) return true;
  return (store.data[collection] as readonly { id: string }[]).some((record) => record.id === resource.id);
}
