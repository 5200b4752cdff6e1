import { chmod, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { startTestServer } from '../helpers/test-server.js';

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

/**
 * What the embedded engine writes holds the audit trail, monitoring, configuration and sealed keys: owner-only
 * whatever the umask (here none at all, so a mode that is right was set on purpose).
 */
describe('files of the data dir', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('are owner-only: the database, its WAL, keys and backups (0600 files, 0700 folders)', async () => {
    const umask = process.umask(0);
    cleanups.push(() => Promise.resolve(void process.umask(umask)));
    const parent = await tempDir();
    cleanups.push(parent.remove);
    const dataDir = join(parent.path, 'data');
    const server = await startTestServer({ dataDir, keepDataDir: true });
    cleanups.push(() => server.close());
    // Audited writes, monitoring records (a request to the gateway), and a backup.
    await server.api('/api/v1/environment-variables', {
      method: 'POST',
      body: JSON.stringify({ kind: 'value', name: 'x', type: 'string' }),
    });
    await fetch(`${server.gatewayUrl}/nowhere`);
    await server.gatehouse.monitoring.flush();
    expect((await server.api('/api/v1/tenant/backups', { method: 'POST' })).status).toBe(200);

    expect(await modeOf(dataDir)).toBe(0o700);
    for (const file of ['gatehouse.db', 'gatehouse.db-wal', 'gatehouse.db-shm']) {
      expect(await modeOf(join(dataDir, file)), file).toBe(0o600);
    }
    expect(await modeOf(join(dataDir, 'keys'))).toBe(0o700);
    expect(await modeOf(join(dataDir, 'keys', 'secrets.key'))).toBe(0o600);
    const backups = join(dataDir, 'backups');
    expect(await modeOf(backups)).toBe(0o700);
    const files = await readdir(backups);
    expect(files.length).toBe(2);
    for (const file of files) expect(await modeOf(join(backups, file)), file).toBe(0o600);

    // A database file whose mode was loosened is made owner-only again at the next start.
    await server.close();
    await chmod(join(dataDir, 'gatehouse.db'), 0o644);
    const again = await startTestServer({ dataDir, keepDataDir: true });
    cleanups.push(() => again.close());
    expect(await modeOf(join(dataDir, 'gatehouse.db'))).toBe(0o600);
  });
});
