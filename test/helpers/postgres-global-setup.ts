/**
 * vitest globalSetup: a real PostgreSQL server for the tests, started by the test command itself in a temp dir on
 * a free loopback port, and stopped afterwards. Its URL reaches the tests (and the processes they start) as
 * GATEHOUSE_TEST_POSTGRES_URL; each test creates its own database on it (test/helpers/test-database.ts).
 *
 * Server binaries: Debian's postgresql (`/usr/lib/postgresql/<version>/bin`, installed by .ci/run), or any
 * `initdb`/`pg_ctl` on PATH. An existing server can be used instead: set GATEHOUSE_TEST_POSTGRES_URL to a URL
 * whose user may create databases.
 */
import { startPostgresServer } from './postgres-server.js';

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.GATEHOUSE_TEST_POSTGRES_URL) return undefined;
  const server = await startPostgresServer();
  process.env.GATEHOUSE_TEST_POSTGRES_URL = server.url;
  return () => server.destroy();
}
