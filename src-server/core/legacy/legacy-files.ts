import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** What a data dir written before the SQL storage holds, relative to the data dir. */
export const LEGACY_PATHS = {
  configFile: join('config', 'store.json'),
  documentsDir: join('config', 'documents'),
  signingKeyFile: join('keys', 'signing-key.jwk.json'),
  apiKeyDigestFile: join('keys', 'api-keys.key'),
  auditDir: 'audit',
  monitoringDir: 'monitoring',
} as const;

/** The legacy paths that exist in the data dir (absolute). */
export function legacyPathsIn(dataDir: string): string[] {
  return Object.values(LEGACY_PATHS)
    .map((relative) => join(dataDir, relative))
    .filter((path) => existsSync(path));
}
