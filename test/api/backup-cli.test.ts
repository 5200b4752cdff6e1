import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli-process.js';
import { tempDir } from '../helpers/temp-dir.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

interface Variable {
  name: string;
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 50));

// The embedded engine's backups, through the commands an operator runs (several CLI processes from source).
describe('gatehouse backup and restore', { timeout: 180_000 }, () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function server(dataDir: string): Promise<TestServer> {
    const started = await startTestServer({
      dataDir,
      keepDataDir: true,
      settings: { 'Flags:EnableServiceApiAuditLogRoute': true },
    });
    cleanups.push(() => started.close());
    return started;
  }

  const variables = async (on: TestServer) =>
    ((await (await on.api('/api/v1/environment-variables')).json()) as { data: Variable[] }).data
      .map((variable) => variable.name)
      .sort();

  const auditActions = async (on: TestServer, endMs: number) => {
    const url = `/api/v1/audit-log?PageSize=200&endDateTimeUtc=${new Date(endMs).toISOString()}`;
    const page = (await (await on.api(url)).json()) as { items: { actionName: string }[] };
    return page.items.map((item) => item.actionName);
  };

  const createVariable = (on: TestServer, name: string) =>
    on.api('/api/v1/environment-variables', {
      method: 'POST',
      body: JSON.stringify({ kind: 'value', name, type: 'string' }),
    });

  it('backs up beside a running server, lists, and restores a moment into a new data dir and in place', async () => {
    const dir = await tempDir();
    cleanups.push(dir.remove);
    const original = await server(dir.path);
    expect((await createVariable(original, 'kept')).status).toBe(201);
    await pause();
    const moment = Date.now();
    const atMoment = { variables: await variables(original), audit: await auditActions(original, moment) };
    await pause();
    const renamed = (await (await original.api('/api/v1/environment-variables')).json()) as {
      data: { id: string; name: string }[];
    };
    const kept = renamed.data.find((variable) => variable.name === 'kept')!;
    expect(
      (await original.api(`/api/v1/environment-variables/${kept.id}`, { method: 'DELETE' })).status,
    ).toBe(204);
    expect((await createVariable(original, 'later')).status).toBe(201);

    const backup = await runCli(['backup', '--data-dir', dir.path]);
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(/full/);
    const list = await runCli(['backup', 'list', '--data-dir', dir.path]);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/gatehouse-\d{8}T\d{9}Z-full/);
    expect(list.stdout).toMatch(/Restorable: from \S+ to \S+/);

    // In place needs the server stopped; another folder does not.
    const refused = await runCli([
      'restore',
      '--to',
      new Date(moment).toISOString(),
      '--into',
      dir.path,
      '--data-dir',
      dir.path,
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Stop the server first');
    const elsewhere = await tempDir();
    cleanups.push(elsewhere.remove);
    const into = join(elsewhere.path, 'restored');
    const restored = await runCli([
      'restore',
      '--to',
      new Date(moment).toISOString(),
      '--into',
      into,
      '--data-dir',
      dir.path,
    ]);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain('-full');
    expect((await stat(join(into, 'gatehouse.db'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(into, 'keys', 'secrets.key'))).mode & 0o777).toBe(0o600);

    const copy = await server(into);
    expect(await variables(copy)).toEqual(atMoment.variables);
    expect(await auditActions(copy, moment)).toEqual(atMoment.audit);
    expect(await variables(copy)).toContain('kept');

    await original.close();
    const inPlace = await runCli([
      'restore',
      '--to',
      new Date(moment).toISOString(),
      '--into',
      dir.path,
      '--data-dir',
      dir.path,
    ]);
    expect(inPlace.stderr).toBe('');
    expect(inPlace.code).toBe(0);
    const aside = (await readdir(dir.path)).find((name) => name.startsWith('replaced-'));
    expect(aside).toBeDefined();
    expect(existsSync(join(dir.path, aside!, 'gatehouse.db'))).toBe(true);
    const back = await server(dir.path);
    expect(await variables(back)).toEqual(atMoment.variables);
  });

  it('refuses a moment outside the window, and points PostgreSQL users at its own tools', async () => {
    const dir = await tempDir();
    cleanups.push(dir.remove);
    await (await server(dir.path)).close();
    const tooOld = await runCli([
      'restore',
      '--to',
      new Date(Date.now() - 40 * 86_400_000).toISOString(),
      '--into',
      join(dir.path, 'x'),
      '--data-dir',
      dir.path,
    ]);
    expect(tooOld.code).toBe(1);
    expect(tooOld.stderr).toMatch(/cannot be restored; the restorable window is from/);
    const notADate = await runCli(['restore', '--to', 'yesterday', '--into', 'x', '--data-dir', dir.path]);
    expect(notADate.code).toBe(2);
    const postgres = await runCli(['backup', '--data-dir', dir.path], {
      env: { ConnectionStrings__Gatehouse: 'postgres://gatehouse@127.0.0.1:1/gatehouse' },
    });
    expect(postgres.code).toBe(1);
    expect(postgres.stderr).toContain('pg_basebackup');
  });
});
