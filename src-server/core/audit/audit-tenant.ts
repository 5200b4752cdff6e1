/**
 * Tenants of the audit trail: one data dir holds several trails side by side, each under a name. Gatehouse's own
 * trail (what the recorder writes) is `gatehouse`; imported and synced trails take the name given.
 */
export const OWN_TENANT = 'gatehouse';

/** The filter value that reads every tenant's trail at once (the console's "All tenants"). */
export const ALL_TENANTS = '*';

/** Lower-case letters, digits, `.`, `_` and `-`, starting with a letter or digit; at most 64. */
export const TENANT_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

export const TENANT_NAME_RULE =
  'a tenant name is 1-64 lower-case letters, digits, ".", "_" or "-", starting with a letter or digit';

/** The stored form of a tenant name (names are case-insensitive), or undefined when it is not one. */
export function tenantName(value: string): string | undefined {
  const name = value.trim().toLowerCase();
  return TENANT_NAME.test(name) ? name : undefined;
}
