import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { EngineKind } from '../../src-server/core/storage/engine-kind.js';

/** Both engines, for `describe.each`. */
export const ENGINES: readonly EngineKind[] = ['sqlite', 'postgres'];

/** The engine the API suites run on (the `postgres` vitest project sets it). */
export function testEngine(): EngineKind {
  return process.env.GATEHOUSE_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';
}

function serverUrl(): string {
  const url = process.env.GATEHOUSE_TEST_POSTGRES_URL;
  if (!url)
    throw new Error('GATEHOUSE_TEST_POSTGRES_URL is not set: the vitest globalSetup starts PostgreSQL.');
  return url;
}

/**
 * A fresh, empty database on the test server; undefined for SQLite (whose file lives in the data dir). The
 * database is left to the server's teardown, which removes the whole cluster.
 */
export async function createTestDatabase(engine: EngineKind): Promise<string | undefined> {
  if (engine === 'sqlite') return undefined;
  const name = `gh_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: serverUrl() });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/** The connection-string setting for an engine: `{}` for SQLite. A new database each call. */
export async function engineSettings(engine: EngineKind = testEngine()): Promise<Record<string, string>> {
  const connectionString = await createTestDatabase(engine);
  return connectionString ? { 'ConnectionStrings:Gatehouse': connectionString } : {};
}

const databasesOfDataDirs = new Map<string, Promise<string | undefined>>();

/**
 * The database of a data dir on the engine the suite runs on: one per data dir, so a server restarted on the
 * same dir (or a CLI run on it) finds what the last one stored. Undefined for SQLite.
 */
export function databaseOfDataDir(
  dataDir: string,
  engine: EngineKind = testEngine(),
): Promise<string | undefined> {
  let database = databasesOfDataDirs.get(dataDir);
  if (!database) {
    database = createTestDatabase(engine);
    databasesOfDataDirs.set(dataDir, database);
  }
  return database;
}

/** Environment variables that point a Gatehouse process at the data dir's database (for CLI runs). */
export async function engineEnvironment(dataDir: string | undefined): Promise<NodeJS.ProcessEnv> {
  if (!dataDir) return {};
  const connectionString = await databaseOfDataDir(dataDir);
  return connectionString ? { ConnectionStrings__Gatehouse: connectionString } : {};
}

/**
 * Waits until no other client is connected to the database. A client killed with SIGKILL does not stop its server
 * processes at once: a COMMIT it had sent still completes after the kill (a loaded machine can take a while to
 * flush it), so a check that reads rows and counts in two snapshots could see that commit between them.
 */
export async function untilOtherClientsLeft(connectionString: string, timeoutMs = 30_000): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await client.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
      );
      if (rows[0]!.n === 0) return;
      if (Date.now() > deadline)
        throw new Error(`${rows[0]!.n} clients still connected after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await client.end();
  }
}
