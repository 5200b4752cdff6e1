import { execFileSync } from 'node:child_process';
import { appendFile, chown, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { startPostgresServer } from '../helpers/postgres-server.js';
import { tempDir } from '../helpers/temp-dir.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Owned by the user the server runs as (postgres, when the tests run as root). */
async function ownedByServer(path: string): Promise<void> {
  if (process.getuid?.() !== 0) return;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  await chown(path, id('-u'), id('-g'));
}

// The README's recipe for PostgreSQL, run as written: base backup, WAL archiving, recovery_target_time.
describe('point-in-time restore on PostgreSQL with its own tools', { timeout: 180_000 }, () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('rebuilds the Gatehouse database as it stood at the target time', async () => {
    // The WAL archive (recipe step 1): a folder the server's user writes.
    const archiveDir = await tempDir();
    cleanups.push(archiveDir.remove);
    const archive = archiveDir.path;
    await ownedByServer(archive);
    const server = await startPostgresServer({
      settings: {
        wal_level: 'replica',
        archive_mode: 'on',
        archive_command: `test ! -f ${archive}/%f && cp %p ${archive}/%f`,
      },
    });
    cleanups.push(() => server.destroy());
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query('create database gatehouse');
    const url = server.url.replace(/\/postgres$/, '/gatehouse');

    const dataDir = await tempDir();
    cleanups.push(dataDir.remove);
    const settings = { 'ConnectionStrings:Gatehouse': url };
    const gatehouse: TestServer = await startTestServer({
      dataDir: dataDir.path,
      keepDataDir: true,
      settings,
    });
    cleanups.push(() => gatehouse.close());
    const create = (name: string) =>
      gatehouse.api('/api/v1/environment-variables', {
        method: 'POST',
        body: JSON.stringify({ kind: 'value', name, type: 'string' }),
      });
    const names = async (on: TestServer) =>
      ((await (await on.api('/api/v1/environment-variables')).json()) as { data: { name: string }[] }).data
        .map((variable) => variable.name)
        .sort();

    // 1. The base backup (recipe step 2).
    const base = join(server.dir, 'base');
    server.run('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(server.port),
      '-U',
      'gatehouse',
      '-D',
      base,
      // An immediate checkpoint: the default spreads it over minutes.
      '-c',
      'fast',
    ]);

    // 2. Changes on both sides of the moment.
    expect((await create('before')).status).toBe(201);
    await pause(200);
    const moment = new Date();
    await pause(200);
    const created = (await (await gatehouse.api('/api/v1/environment-variables')).json()) as {
      data: { id: string; name: string }[];
    };
    const before = created.data.find((variable) => variable.name === 'before')!;
    expect(
      (await gatehouse.api(`/api/v1/environment-variables/${before.id}`, { method: 'DELETE' })).status,
    ).toBe(204);
    expect((await create('after')).status).toBe(201);
    expect(await names(gatehouse)).toEqual(['after']);
    await gatehouse.close();

    // 3. The segment holding those changes goes to the archive.
    const { rows } = await admin.query<{ name: string }>('select pg_walfile_name(pg_switch_wal()) as name');
    for (let tries = 0; ; tries++) {
      const archived = await admin.query<{ last: string | null }>(
        'select last_archived_wal as last from pg_stat_archiver',
      );
      if (archived.rows[0]?.last !== null && archived.rows[0]!.last >= rows[0]!.name) break;
      if (tries > 200) throw new Error('the WAL segment was not archived');
      await pause(100);
    }
    await admin.end();

    // 4. Recovery into a copy of the base backup, to the moment (recipe step 3).
    await appendFile(
      join(base, 'postgresql.auto.conf'),
      [
        `restore_command = 'cp ${archive}/%f %p'`,
        // PostgreSQL reads the time as 'YYYY-MM-DD HH:MM:SS.sss+00' (an ISO 'T…Z' form is refused).
        `recovery_target_time = '${moment.toISOString().replace('T', ' ').replace('Z', '+00')}'`,
        `recovery_target_action = 'promote'`,
        `archive_mode = 'off'`,
        '',
      ].join('\n'),
    );
    await writeFile(join(base, 'recovery.signal'), '');
    await ownedByServer(join(base, 'recovery.signal'));
    const port = await freePort();
    const log = join(server.dir, 'restored.log');
    try {
      server.run('pg_ctl', [
        '-D',
        base,
        '-l',
        log,
        '-w',
        '-t',
        '120',
        '-o',
        // Hot-standby settings may not be lower than the original server's (the test server has 300 connections).
        `-p ${port} -k ${server.dir} -c listen_addresses=127.0.0.1 -c max_connections=300`,
        'start',
      ]);
    } catch (error) {
      throw new Error(`The restored cluster did not start:\n${await readFile(log, 'utf8')}`, {
        cause: error,
      });
    }
    cleanups.push(async () => {
      server.run('pg_ctl', ['-D', base, '-m', 'immediate', '-w', 'stop']);
      await Promise.resolve();
    });

    // pg_ctl -w returns once the server takes connections, which is before recovery ends and it opens for writes
    // (the recipe's last step): Gatehouse starts once it has (an instance registers itself when it starts).
    const restoredUrl = url.replace(`:${server.port}/`, `:${port}/`);
    const probe = new pg.Client({ connectionString: restoredUrl });
    await probe.connect();
    try {
      for (let waited = 0; ; waited += 100) {
        const { rows } = await probe.query<{ recovering: boolean }>(
          'select pg_is_in_recovery() as recovering',
        );
        if (!rows[0]!.recovering) break;
        if (waited > 60_000) throw new Error('the restored cluster did not open for writes within a minute');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await probe.end();
    }
    const restored = await startTestServer({
      dataDir: dataDir.path,
      keepDataDir: true,
      settings: { 'ConnectionStrings:Gatehouse': restoredUrl },
    });
    cleanups.push(() => restored.close());
    expect(await names(restored)).toEqual(['before']);
  });
});
