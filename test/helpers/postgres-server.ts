import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { appendFile, chown, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A PostgreSQL server in a temp dir, for the tests: its URL, and ways to stop and start it again. */
export interface PostgresServer {
  /** `postgres://gatehouse@127.0.0.1:<port>/postgres` (trust authentication, loopback only). */
  url: string;
  stop: (mode?: 'fast' | 'immediate') => void;
  start: () => void;
  /** Stops it and removes its files. */
  destroy: () => Promise<void>;
  /** Its temp dir (the cluster is in `data/`), owned by the user the server runs as. */
  dir: string;
  port: number;
  /** Runs a PostgreSQL tool (pg_basebackup, pg_ctl…) as the user the server runs as. */
  run: (tool: string, args: string[]) => void;
}

export interface PostgresServerOptions {
  /** Server settings (`-c name=value`), e.g. WAL archiving. */
  settings?: Record<string, string>;
  /** A dir to keep the cluster in (reused when it holds one already) instead of a fresh temp dir. */
  dir?: string;
}

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
  } catch (error) {
    if ((error as { status?: number }).status !== undefined) return undefined;
    throw error;
  }
}

/**
 * Creates and starts a cluster (Debian's postgresql, or initdb/pg_ctl on PATH) on a free loopback port.
 * initdb refuses to run as root, so as root the server runs as the `postgres` OS user, in a dir it owns.
 */
export async function startPostgresServer(options: PostgresServerOptions = {}): Promise<PostgresServer> {
  const bin = findBinDir();
  if (!bin) {
    throw new Error(
      'The tests need PostgreSQL server binaries (initdb, pg_ctl): install them (Debian: apt-get install -y postgresql) or set GATEHOUSE_TEST_POSTGRES_URL to a server the tests may create databases on.',
    );
  }
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), 'gatehouse-test-pg-')));
  await mkdir(dir, { recursive: true });
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
  const reused = existsSync(join(data, 'PG_VERSION'));
  if (!reused)
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
  // In the cluster's own configuration file: values with spaces (an archive_command) need no shell quoting.
  const settings = Object.entries(options.settings ?? {}).map(
    ([name, value]) => `${name} = '${value.replaceAll("'", "''")}'\n`,
  );
  if (settings.length > 0 && !reused) await appendFile(join(data, 'postgresql.conf'), settings.join(''));
  const start = () =>
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
  const stop = (mode: 'fast' | 'immediate' = 'fast') => run('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
  start();
  return {
    url: `postgres://gatehouse@127.0.0.1:${port}/postgres`,
    stop,
    start,
    async destroy() {
      try {
        stop('immediate');
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    dir,
    port,
    run,
  };
}
