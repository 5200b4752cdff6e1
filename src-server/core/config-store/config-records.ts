import type { ConfigData } from '../model/config-model.js';

/**
 * The configuration as rows: one per record of each collection, one for the tenant and one for the schema
 * version. A change writes the rows of the records it changed, never the whole configuration.
 */

/** The collections of `ConfigData` and the field that identifies a record in each. */
const COLLECTION_KEYS = {
  appRegistrations: 'id',
  signInTickets: 'ticketHash',
  environments: 'id',
  agentGroups: 'id',
  environmentVariables: 'id',
  apis: 'id',
  passthroughs: 'id',
  policies: 'id',
  apiKeys: 'id',
} as const satisfies Partial<Record<keyof ConfigData, string>>;

type Collection = keyof typeof COLLECTION_KEYS;
export const COLLECTIONS = Object.keys(COLLECTION_KEYS) as Collection[];

/** The kinds of rows that are not records of a collection. */
export const TENANT_KIND = 'tenant';
export const SCHEMA_VERSION_KIND = 'schemaVersion';
/** The key of the single row of those kinds. */
export const SINGLE_KEY = '';

/** One row to write: `record` undefined when the record was removed. */
export interface RecordChange {
  kind: string;
  key: string;
  record: unknown;
}

export interface StoredRecord {
  kind: string;
  key: string;
  data: string;
}

function keyOf(collection: Collection, record: unknown): string {
  const key = (record as Record<string, unknown>)[COLLECTION_KEYS[collection]];
  if (typeof key !== 'string' || key === '') {
    throw new TypeError(`A record of ${collection} has no ${COLLECTION_KEYS[collection]}.`);
  }
  return key;
}

/**
 * What changed from `before` to `after`, found by identity: `after` shares every record it did not change with
 * `before` (the store derives it by structural sharing), so only the records that differ are compared and written.
 */
export function changedRecords(before: Readonly<ConfigData>, after: Readonly<ConfigData>): RecordChange[] {
  const changes: RecordChange[] = [];
  if (before.schemaVersion !== after.schemaVersion) {
    changes.push({ kind: SCHEMA_VERSION_KIND, key: SINGLE_KEY, record: after.schemaVersion });
  }
  if (before.tenant !== after.tenant)
    changes.push({ kind: TENANT_KIND, key: SINGLE_KEY, record: after.tenant });
  for (const collection of COLLECTIONS) {
    const previous = before[collection] as readonly unknown[];
    const next = after[collection] as readonly unknown[];
    if (previous === next) continue;
    const previousByKey = new Map(previous.map((record) => [keyOf(collection, record), record]));
    const seen = new Set<string>();
    for (const record of next) {
      const key = keyOf(collection, record);
      if (seen.has(key)) throw new TypeError(`Two records of ${collection} have the key ${key}.`);
      seen.add(key);
      if (previousByKey.get(key) !== record) changes.push({ kind: collection, key, record });
    }
    for (const key of previousByKey.keys()) {
      if (!seen.has(key)) changes.push({ kind: collection, key, record: undefined });
    }
  }
  return changes;
}

/** Every row of a whole configuration (the first commit, a conversion, a restore). */
export function allRecords(data: Readonly<ConfigData>): RecordChange[] {
  const changes: RecordChange[] = [
    { kind: SCHEMA_VERSION_KIND, key: SINGLE_KEY, record: data.schemaVersion },
    { kind: TENANT_KIND, key: SINGLE_KEY, record: data.tenant },
  ];
  for (const collection of COLLECTIONS) {
    for (const record of data[collection] as readonly unknown[]) {
      changes.push({ kind: collection, key: keyOf(collection, record), record });
    }
  }
  return changes;
}

/**
 * The configuration from its rows, in the order given (the store keeps each collection in the order its records
 * were first added). Undefined when there are none.
 */
export function assembleConfig(rows: readonly StoredRecord[]): ConfigData | undefined {
  if (rows.length === 0) return undefined;
  const data: Record<string, unknown> = { schemaVersion: 0, tenant: undefined };
  for (const collection of COLLECTIONS) data[collection] = [];
  for (const row of rows) {
    const value: unknown = JSON.parse(row.data);
    if (row.kind === SCHEMA_VERSION_KIND) data.schemaVersion = value;
    else if (row.kind === TENANT_KIND) data.tenant = value;
    else if (Object.hasOwn(COLLECTION_KEYS, row.kind)) (data[row.kind] as unknown[]).push(value);
  }
  return data as unknown as ConfigData;
}
