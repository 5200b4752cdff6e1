/**
 * vitest globalSetup: a real PostgreSQL server for the tests, started by the test command itself in a temp dir on
 * a free loopback port, and stopped afterwards. Its URL reaches the tests (and the processes they start) as
 * GATEHOUSE_TEST_POSTGRES_URL; each test creates its own database on it (test/helpers/test-database.ts).
 *
 * Server binaries: Debian's postgresql (`/usr/lib/postgresql/<version>/bin`, installed by .ci/run), or any
 * `initdb`/`pg_ctl` on PATH. initdb refuses to run as root, so as root the server runs as the `postgres` OS user.
 * An existing server can be used instead: set GATEHOUSE_TEST_POSTGRES_URL to a URL whose user may create databases.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function findBinDir(): string | undefined {
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((name) => existsSync(join(debian, name, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(debian, versions[0], 'bin');
  }
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return dir;
  }
  return undefined;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function osUser(name: string): { uid: number; gid: number } | undefined {
  try {
    return {
      uid: Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim()),
      gid: Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim()),
    };
  } catch {
    return undefined;
  }
}

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.GATEHOUSE_TEST_POSTGRES_URL) return undefined;
  const bin = findBinDir();
  if (!bin) {
    throw new Error(
      'The tests need PostgreSQL server binaries (initdb, pg_ctl): install them (Debian: apt-get install -y postgresql) or set GATEHOUSE_TEST_POSTGRES_URL to a server the tests may create databases on.',
    );
  }
  const dir = await mkdtemp(join(tmpdir(), 'gatehouse-test-pg-'));
  const asRoot = process.getuid?.() === 0;
  const runAs = asRoot ? osUser('postgres') : undefined;
  if (asRoot && !runAs) throw new Error('Running as root, the test PostgreSQL needs the postgres OS user.');
  if (runAs) await chown(dir, runAs.uid, runAs.gid);
  const run = (tool: string, args: string[]): void => {
    const command = runAs ? 'runuser' : join(bin, tool);
    const fullArgs = runAs ? ['-u', 'postgres', '--', join(bin, tool), ...args] : args;
    execFileSync(command, fullArgs, { stdio: ['ignore', 'pipe', 'pipe'], cwd: dir });
  };
  const data = join(dir, 'data');
  const port = await freePort();
  run('initdb', [
    '-D',
    data,
    '-A',
    'trust',
    '-U',
    'gatehouse',
    '-E',
    'UTF8',
    '--no-sync',
    '--no-instructions',
  ]);
  run('pg_ctl', [
    '-D',
    data,
    '-l',
    join(dir, 'server.log'),
    '-w',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=300 -c shared_buffers=32MB`,
    'start',
  ]);
  process.env.GATEHOUSE_TEST_POSTGRES_URL = `postgres://gatehouse@127.0.0.1:${port}/postgres`;
  return async () => {
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
}
