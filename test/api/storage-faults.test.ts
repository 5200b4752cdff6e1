import Database from 'better-sqlite3';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../src-server/core/logging/logger.js';
import { SQLITE_FILE_NAME } from '../../src-server/core/storage/sqlite-engine.js';
import { runCli } from '../helpers/cli-process.js';
import { startPostgresServer, type PostgresServer } from '../helpers/postgres-server.js';
import { tempDir } from '../helpers/temp-dir.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { entryAt } from '../unit/audit-store/helpers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function scratch(): Promise<string> {
  const dir = await tempDir('gatehouse-faults-');
  cleanups.push(dir.remove);
  return dir.path;
}

function capturingLogger(): { logger: ReturnType<typeof createLogger>; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger('info', stream), lines };
}

const variable = (name: string) => JSON.stringify({ kind: 'value', name, type: 'string' });

describe('PostgreSQL unreachable at start', () => {
  it(
    'ends serve with a clear error naming the server (not its password) and a non-zero exit',
    { timeout: 120_000 },
    async () => {
      const result = await runCli([
        'serve',
        '--data-dir',
        await scratch(),
        '--port',
        '0',
        '--gateway-port',
        '0',
        '--set',
        'ConnectionStrings:Gatehouse=postgres://gatehouse:hunter2@127.0.0.1:1/gatehouse',
      ]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /PostgreSQL at postgres:\/\/gatehouse@127\.0\.0\.1:1\/gatehouse \(ConnectionStrings:Gatehouse\) cannot be reached/,
      );
      expect(result.stderr).not.toContain('hunter2');
      expect(result.stderr).not.toMatch(/^\s+at /m);
    },
  );
});

describe('PostgreSQL lost while running', () => {
  let postgres: PostgresServer;
  let server: TestServer;

  it(
    'answers writes 503 problem+json, acknowledges nothing it did not store, and reconnects by itself',
    { timeout: 120_000 },
    async () => {
      postgres = await startPostgresServer();
      cleanups.push(() => postgres.destroy());
      server = await startTestServer({
        settings: {
          'ConnectionStrings:Gatehouse': postgres.url,
          'Flags:EnableServiceApiAuditLogRoute': true,
        },
      });
      cleanups.push(() => server.close());
      const before = await server.api('/api/v1/environment-variables', {
        method: 'POST',
        body: variable('before'),
      });
      expect(before.status).toBe(201);

      postgres.stop('fast');
      const during = await server.api('/api/v1/environment-variables', {
        method: 'POST',
        body: variable('during'),
      });
      expect(during.status).toBe(503);
      expect(during.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(((await during.json()) as { detail: string }).detail).toMatch(
        /database server is not reachable/,
      );
      const audit = await server.api('/api/v1/audit-log', { roles: ['Auditor'] });
      expect(audit.status).toBe(503);

      postgres.start();
      await vi.waitFor(
        async () => {
          const after = await server.api('/api/v1/environment-variables', {
            method: 'POST',
            body: variable('after'),
          });
          expect(after.status).toBe(201);
        },
        { timeout: 20_000, interval: 250 },
      );
      const names = (
        (await (await server.api('/api/v1/environment-variables')).json()) as { data: { name: string }[] }
      ).data.map((item) => item.name);
      expect(names.sort()).toEqual(['after', 'before']);
      const created = (await (
        await server.api('/api/v1/audit-log?actionName=EnvironmentVariables.Create', { roles: ['Auditor'] })
      ).json()) as {
        items: { parameters: { name?: string }; statusCode: number }[];
      };
      expect(
        created.items
          .filter((item) => item.statusCode === 201)
          .map((item) => item.parameters.name)
          .sort(),
      ).toEqual(['after', 'before']);
    },
  );
});

describe('a damaged SQLite file', () => {
  it(
    'is reported soon after the start, with the file and the way out; reads of damaged pages answer 503, never 500',
    { timeout: 120_000 },
    async () => {
      const dataDir = await scratch();
      const first = await startTestServer({ dataDir, keepDataDir: true });
      await first.gatehouse.audit.store.importEntries(
        Array.from({ length: 20_000 }, (_, i) =>
          entryAt(Date.UTC(2030, 0, 1) + i * 60_000, { parameters: { i, text: 'x'.repeat(200) } }),
        ),
      );
      await first.close();

      // Overwrite eight of the audit trail's table pages in the middle of the trail (found by SQLite's dbstat, so
      // the damage lands on the entries whatever else the file holds).
      const file = join(dataDir, SQLITE_FILE_NAME);
      const inspect = new Database(file, { readonly: true });
      const pageSize = inspect.pragma('page_size', { simple: true }) as number;
      const pages = (
        inspect
          .prepare(
            "select pageno from dbstat where name = 'audit_entries' and pagetype = 'leaf' order by pageno",
          )
          .all() as { pageno: number }[]
      ).map((row) => row.pageno);
      inspect.close();
      const middle = Math.floor(pages.length / 2);
      const handle = await open(file, 'r+');
      for (const page of pages.slice(middle, middle + 8))
        await handle.write(Buffer.alloc(pageSize, 0x41), 0, pageSize, (page - 1) * pageSize);
      await handle.close();

      const { logger, lines } = capturingLogger();
      const server = await startTestServer({
        dataDir,
        keepDataDir: true,
        logger,
        settings: { 'Flags:EnableServiceApiAuditLogRoute': true, 'Audit:RetentionDays': 3650 },
      });
      cleanups.push(() => server.close());
      await vi.waitFor(
        () =>
          expect(lines.some((line) => String(line.msg).includes('is damaged') && line.level === 50)).toBe(
            true,
          ),
        { timeout: 30_000, interval: 200 },
      );
      const report = lines.find((line) => String(line.msg).includes('is damaged'))!;
      expect(report.msg).toContain(file);
      expect(report.msg).toMatch(/restore .* from the latest backup/);

      const statuses = new Set<number>();
      for (let page = 1; page <= 100; page++) {
        const response = await server.api(`/api/v1/audit-log?PageSize=200&PageNumber=${page}`, {
          roles: ['Auditor'],
        });
        statuses.add(response.status);
        if (response.status === 503) {
          const problem = (await response.json()) as { detail: string };
          expect(problem.detail).toMatch(/damaged.*restore/i);
        } else await response.arrayBuffer();
      }
      expect([...statuses].every((status) => status === 200 || status === 503)).toBe(true);
      expect(statuses.has(503)).toBe(true);
    },
  );
});
