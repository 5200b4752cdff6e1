import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Two projects: everything on the embedded engine (SQLite), and the API suites that read and write what is
 * stored (audit contract, paging, filters, retention, import and export, monitoring queries, configuration
 * management, the CLI) once more on PostgreSQL. The store-level suites run on both engines themselves. The
 * PostgreSQL server is started by the global setup (test/helpers/postgres-global-setup.ts); the CLI the tests
 * start as processes is bundled once by another (test/helpers/cli-bundle-global-setup.ts).
 */
const POSTGRES_SUITES = [
  'test/api/audit-*.test.ts',
  'test/api/audit-sync/**/*.test.ts',
  'test/api/cli.test.ts',
  'test/api/monitoring/**/*.test.ts',
  'test/api/management/**/*.test.ts',
];

export default defineConfig({
  test: {
    environment: 'node',
    pool: 'forks',
    // Two test files at a time even on 2 cores (vitest's default there is one): most of a file's time is waiting on
    // the servers, databases and CLI processes it starts. 15 of the slowest files passed this way at load 14-23.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 30_000,
    globalSetup: ['test/helpers/postgres-global-setup.ts', 'test/helpers/cli-bundle-global-setup.ts'],
    reporters: process.env.CI ? ['default'] : ['default'],
    projects: [
      {
        extends: true,
        test: { name: 'sqlite', include: ['test/unit/**/*.test.ts', 'test/api/**/*.test.ts'] },
      },
      {
        extends: true,
        test: { name: 'postgres', include: POSTGRES_SUITES, env: { GATEHOUSE_TEST_ENGINE: 'postgres' } },
      },
    ],
  },
});
