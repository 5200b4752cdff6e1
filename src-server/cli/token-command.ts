import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SigningKeySet, type SigningKeys } from '../control/identity/signing-key-set.js';
import { BUILT_IN_ROLES, isBuiltInRole } from '../core/activities/roles.js';
import { TokenIssuer, builtInIssuer } from '../control/identity/token-issuer.js';
import { SettingsSource, type SettingsSnapshot } from '../core/settings/settings.js';
import { dataDirLayout } from '../core/data-dir/default-data-dir.js';
import { KeyStore } from '../core/config-store/key-store.js';
import { SecretBox, secretsKeyFile } from '../core/config-store/secret-box.js';
import type { TenantRecord } from '../core/model/config-model.js';
import { TENANT_KIND } from '../core/config-store/config-records.js';
import { recordJson } from '../core/config-store/config-rows.js';
import { createLogger } from '../core/logging/logger.js';
import { Database } from '../core/storage/database.js';
import { SQLITE_FILE_NAME } from '../core/storage/sqlite-engine.js';
import { dataDirOption, withOfflineTenant } from './offline-tenant.js';
import { parseDurationSeconds } from './parse-duration.js';
import { UsageError } from './usage-error.js';

export const TOKEN_HELP = `gatehouse token --roles R1,R2 [--user NAME] [--ttl 1h] [--data-dir DIR]

Prints a bearer token from the data dir's built-in identity provider.
Roles: ${BUILT_IN_ROLES.join(', ')}. The user defaults to your OS user name.`;

/**
 * The tenant id and signing key, read without the data-dir lock (a server may be running): the SQLite file
 * opened read-only. Undefined when the data dir was never initialised.
 */
async function readIdentity(
  dataDir: string,
  settings: SettingsSnapshot,
): Promise<{ tenantId: string; signingKeys: SigningKeys } | undefined> {
  const connectionString = settings.str('ConnectionStrings:Gatehouse');
  if (!connectionString && !existsSync(join(dataDir, SQLITE_FILE_NAME))) return undefined;
  const database = await Database.open({
    dataDir,
    connectionString,
    logger: createLogger('silent'),
    readonly: !connectionString,
  });
  try {
    const tables = await database.db.introspection.getTables();
    if (!tables.some((table) => table.name === 'config_records')) return undefined;
    // Every column there is: a data dir the server has not migrated yet (read-only here) has no data_deflated.
    const tenant = await database.db
      .selectFrom('config_records')
      .selectAll()
      .where('kind', '=', TENANT_KIND)
      .where('valid_to', 'is', null)
      .executeTakeFirst();
    if (!tenant) return undefined;
    const stored = { data: tenant.data, data_deflated: tenant.data_deflated ?? null };
    const tenantId = (JSON.parse(await recordJson(stored)) as TenantRecord).id;
    const box = await SecretBox.open(
      secretsKeyFile(dataDirLayout(dataDir).keysDir, settings.str('Secrets:KeyFile')),
    );
    // The key that signs now on every instance (a rotated one once it is published long enough).
    const signingKeys = await SigningKeySet.open(KeyStore.readOnly(database, box));
    return { tenantId, signingKeys };
  } catch (error) {
    if (/does not exist yet/.test((error as Error).message)) return undefined;
    throw error;
  } finally {
    await database.close();
  }
}

export async function tokenCommand(argv: string[], out: NodeJS.WritableStream): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string' },
      roles: { type: 'string' },
      user: { type: 'string' },
      ttl: { type: 'string' },
    },
    strict: true,
  });
  if (!values.roles) throw new UsageError(`--roles is required.\n\n${TOKEN_HELP}`);
  const roles = values.roles
    .split(',')
    .map((role) => role.trim())
    .filter(Boolean);
  const unknown = roles.filter((role) => !isBuiltInRole(role));
  if (roles.length === 0 || unknown.length > 0) {
    throw new UsageError(
      `Unknown role ${unknown.join(', ') || '(none)'}. Roles: ${BUILT_IN_ROLES.join(', ')}.`,
    );
  }
  const dataDir = dataDirOption(values['data-dir']);
  const settings = await new SettingsSource({ dataDir }).resolve();
  const ttlSeconds = values.ttl
    ? parseDurationSeconds(values.ttl, '--ttl')
    : settings.int('Auth:TokenLifetimeMinutes') * 60;
  const userName = values.user ?? process.env.USER ?? process.env.USERNAME ?? 'operator';

  // A data dir that was never started is initialised first (that takes the lock).
  let identity = await readIdentity(dataDir, settings);
  if (!identity) {
    identity = await withOfflineTenant(dataDir, 'token', (tenant) =>
      Promise.resolve({ tenantId: tenant.configStore.data.tenant.id, signingKeys: tenant.signingKeys }),
    );
  }
  const issuer = new TokenIssuer(
    identity.signingKeys,
    builtInIssuer(identity.tenantId),
    settings.str('Auth:Audience'),
  );
  const token = await issuer.issue({ subject: `user:${userName}`, userName, roles, ttlSeconds });
  out.write(`${token}\n`);
}
