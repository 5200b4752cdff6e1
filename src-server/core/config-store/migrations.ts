import type { AgentGroupRecord, ConfigData, EnvironmentRecord } from '../model/config-model.js';

/** The store as an older release wrote it: what later versions added may be missing. */
type StoredConfigData = Partial<ConfigData>;

type Migration = (data: StoredConfigData, now: Date) => void;

/** Index i upgrades schema version i to i + 1. Append only; never edit a released step. */
const MIGRATIONS: Migration[] = [
  (data) => {
    data.appRegistrations ??= [];
    data.signInTickets ??= [];
  },
  // Passthrough APIs: the Development environment and the Default cross-platform agent group exist from the start.
  (data, now) => {
    const at = now.toISOString();
    const environments: EnvironmentRecord[] = [
      { id: 'development', name: 'Development', createdAt: at, updatedAt: at },
    ];
    const agentGroups: AgentGroupRecord[] = [
      {
        id: 'default',
        name: 'Default',
        environmentId: 'development',
        platform: 'cross-platform',
        host: '127.0.0.1',
        port: 8080,
        createdAt: at,
        updatedAt: at,
      },
    ];
    data.environments ??= environments;
    data.agentGroups ??= agentGroups;
    data.environmentVariables ??= [];
    data.apis ??= [];
    data.passthroughs ??= [];
    data.policies ??= [];
    data.apiKeys ??= [];
  },
  // Header entries may hold `sealedValue` (literal credential values, sealed when the data dir is opened: see
  // passthrough/seal-stored-headers.ts). Nothing to reshape; the version keeps older releases, which would send
  // such headers empty, from opening the store.
  () => undefined,
];

export const CURRENT_SCHEMA_VERSION = MIGRATIONS.length;

/** Brings a store read from disk (typed as the current shape, but of any older version) up to date, in place. */
export function migrate(stored: ConfigData, now: Date): ConfigData {
  const data: StoredConfigData = stored;
  for (let version = data.schemaVersion ?? 0; version < CURRENT_SCHEMA_VERSION; version++) {
    MIGRATIONS[version]!(data, now);
    data.schemaVersion = version + 1;
  }
  return stored;
}
