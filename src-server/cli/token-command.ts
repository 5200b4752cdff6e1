import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadOrCreateSigningKey } from '../control/identity/signing-key.js';
import { BUILT_IN_ROLES, isBuiltInRole } from '../core/activities/roles.js';
import { TokenIssuer, builtInIssuer } from '../control/identity/token-issuer.js';
import { SettingsSource } from '../core/settings/settings.js';
import { dataDirLayout } from '../core/data-dir/default-data-dir.js';
import { CONFIG_STORE_FILE } from '../core/config-store/config-store.js';
import { dataDirOption, withOfflineTenant } from './offline-tenant.js';
import { parseDurationSeconds } from './parse-duration.js';
import { UsageError } from './usage-error.js';

export const TOKEN_HELP = `gatehouse token --roles R1,R2 [--user NAME] [--ttl 1h] [--data-dir DIR]

Prints a bearer token from the data dir's built-in identity provider.
Roles: ${BUILT_IN_ROLES.join(', ')}. The user defaults to your OS user name.`;

function tenantIdOf(dataDir: string): string | undefined {
  const file = join(dataDirLayout(dataDir).configDir, CONFIG_STORE_FILE);
  if (!existsSync(file)) return undefined;
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { tenant?: { id?: string } };
  return parsed.tenant?.id;
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

  // Reading the key and the tenant id needs no lock; a data dir that was never started is initialised first.
  let tenantId = tenantIdOf(dataDir);
  if (!tenantId || !existsSync(join(dataDirLayout(dataDir).keysDir, 'signing-key.jwk.json'))) {
    tenantId = await withOfflineTenant(dataDir, 'token', (tenant) =>
      Promise.resolve(tenant.configStore.data.tenant.id),
    );
  }
  const key = await loadOrCreateSigningKey(dataDirLayout(dataDir).keysDir);
  const issuer = new TokenIssuer(key, builtInIssuer(tenantId), settings.str('Auth:Audience'));
  const token = await issuer.issue({ subject: `user:${userName}`, userName, roles, ttlSeconds });
  out.write(`${token}\n`);
}
