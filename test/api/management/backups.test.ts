import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Backup, BackupOverview } from '../../../src-server/core/contracts/index.js';
import { testEngine } from '../../helpers/test-database.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import { expectProblem, json } from './helpers.js';

const embedded = testEngine() === 'sqlite';

describe('backups in the tenant settings', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const start = (roles?: string[]) =>
    server.api('/api/v1/tenant/backups', { method: 'POST', ...(roles ? { roles } : {}) });

  it.runIf(embedded)(
    'lists the backups with their sizes and the restorable window; an Operator starts one, audited',
    async () => {
      const before = await json<BackupOverview>(
        await server.api('/api/v1/tenant/backups', { roles: ['Auditor'] }),
      );
      expect(before).toMatchObject({ engine: 'sqlite', backups: [], totalBytes: 0 });
      expect(before.directory).toBe(join(server.dataDir, 'backups'));
      // The database itself can be read: the window reaches now.
      expect(Date.parse(before.restorableWindow!.to)).toBeGreaterThan(Date.now() - 60_000);

      const response = await start();
      expect(response.status).toBe(200);
      const first = await json<Backup>(response);
      expect(first).toMatchObject({ kind: 'full' });
      expect(first.bytes).toBe((await stat(join(server.dataDir, 'backups', `${first.name}.db`))).size);
      const second = await json<Backup>(await start());
      expect(second).toMatchObject({ kind: 'differential', base: first.name });

      const after = await json<BackupOverview>(await server.api('/api/v1/tenant/backups'));
      expect(after.backups.map((backup) => backup.name)).toEqual([first.name, second.name]);
      expect(after.totalBytes).toBe(first.bytes + second.bytes);

      const audited = await server.gatehouse.audit.store.query({
        pageNumber: 1,
        pageSize: 10,
        actionName: 'TenantSettings.Backup',
      });
      expect(audited.items.map((entry) => entry.resources[0]?.id).sort()).toEqual(
        [first.name, second.name].sort(),
      );
    },
  );

  it('is started by the Operator role only', async () => {
    await expectProblem(await start(['Administrator']), 403, 'GH_ERR_FORBIDDEN');
    await expectProblem(await start(['Auditor']), 403, 'GH_ERR_FORBIDDEN');
  });

  it.runIf(!embedded)('on PostgreSQL, points at its own tools and takes no backup', async () => {
    const overview = await json<BackupOverview>(await server.api('/api/v1/tenant/backups'));
    expect(overview).toEqual({ engine: 'postgres', backups: [], restorableWindow: null, totalBytes: 0 });
    const refused = await expectProblem(await start(), 422, 'GH_ERR_BACKUP_UNSUPPORTED');
    expect(refused.detail).toContain('pg_basebackup');
  });
});
