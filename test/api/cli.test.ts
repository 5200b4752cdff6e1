import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServeProcess, type ServeProcess } from '../helpers/cli-process.js';
import { tempDir } from '../helpers/temp-dir.js';
import { testEngine } from '../helpers/test-database.js';
import { SQLITE_FILE_NAME } from '../../src-server/core/storage/sqlite-engine.js';

// Each test runs several CLI processes from source (through tsx): seconds each on a busy machine.
/** The indexes migrations 0018 and 0020 add (timeline count indexes, count indexes by name). */
const COUNT_INDEXES_SINCE_0018 = [
  'audit_action_day_counts_by_day',
  'audit_user_day_counts_by_day',
  'audit_action_user_day_counts_by_user',
  'audit_action_hour_counts_with_n',
  'audit_user_hour_counts_with_n',
  'audit_action_day_counts_names',
  'audit_user_day_counts_names',
  'audit_action_day_counts_by_name',
  'audit_user_day_counts_by_name',
  'audit_action_hour_counts_by_name',
  'audit_user_hour_counts_by_name',
];

describe('gatehouse CLI', { timeout: 120_000 }, () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let serve: ServeProcess | undefined;

  beforeAll(async () => {
    dir = await tempDir();
  });
  afterAll(async () => {
    serve?.child.kill('SIGKILL');
    await dir.remove();
  });

  it('serves, refuses a second writer on the same data dir naming the pid, and stops cleanly on SIGTERM', async () => {
    serve = await startServeProcess(dir.path);
    expect(serve.controlPanelUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(serve.gatewayUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(serve.signInUrl).toMatch(/#signin=/);
    expect(serve.output()).toContain('/swagger/index.html');

    const second = await runCli(['serve', '--data-dir', dir.path, '--port', '0', '--gateway-port', '0']);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`pid ${serve.child.pid}`);
    const offline = await runCli([
      'config',
      'set',
      'Flags:EnableServiceApiAuditLogRoute',
      'true',
      '--data-dir',
      dir.path,
    ]);
    expect(offline.code).toBe(1);
    expect(offline.stderr).toContain(`pid ${serve.child.pid}`);

    // Reading needs no lock: a token printed now works against the running server.
    const token = await runCli([
      'token',
      '--data-dir',
      dir.path,
      '--roles',
      'Auditor',
      '--user',
      'support',
      '--ttl',
      '5m',
    ]);
    expect(token.code).toBe(0);
    const me = await fetch(`${serve.controlPanelUrl}/api/v1/me`, {
      headers: { Authorization: `Bearer ${token.stdout.trim()}` },
    });
    expect(await me.json()).toMatchObject({ userName: 'support', roles: ['Auditor'] });
    expect(
      (
        await runCli(['config', 'get', 'Flags:EnableServiceApiAuditLogRoute', '--data-dir', dir.path])
      ).stdout.trim(),
    ).toBe('false');

    // The sign-in link's ticket exchanges once for a session.
    const ticket = serve.signInUrl.split('#signin=')[1]!;
    const signIn = () =>
      fetch(`${serve!.controlPanelUrl}/api/v1/session/sign-in`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ ticket }),
      });
    const session = await signIn();
    expect(session.status).toBe(200);
    expect(await session.json()).toMatchObject({ tokenType: 'Bearer', roles: ['Operator'] });
    expect((await signIn()).status).toBe(401);

    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
    expect(serve.output()).toContain('Stopped.');
    serve = undefined;
  });

  // On PostgreSQL the token command migrates like the server; on SQLite it reads the file without writing.
  it.skipIf(testEngine() !== 'sqlite')(
    'prints a token for a data dir the server has not migrated yet (after an upgrade), which it then accepts',
    async () => {
      const upgraded = await tempDir();
      try {
        const first = await startServeProcess(upgraded.path);
        first.child.kill('SIGTERM');
        expect(await first.exited).toBe(0);
        // As a release before migration 0017 left it: 0017's column, the indexes of 0018 and 0020, 0023's table
        // and triggers, and 0027's table taken back out (the search's delete trigger as 0007 made it).
        const handle = new BetterSqlite3(join(upgraded.path, SQLITE_FILE_NAME));
        const laterIndexes = handle
          .prepare(
            `select name from sqlite_master where type = 'index' and name in (${COUNT_INDEXES_SINCE_0018.map(() => '?').join(', ')})`,
          )
          .pluck()
          .all(...COUNT_INDEXES_SINCE_0018) as string[];
        expect(laterIndexes).toHaveLength(COUNT_INDEXES_SINCE_0018.length);
        for (const name of laterIndexes) handle.exec(`drop index ${name}`);
        handle.exec(`drop trigger audit_time_disorder_late;
        drop trigger audit_time_disorder_low_id;
        drop table audit_time_disorder;
        drop trigger audit_search_delete;
        drop table audit_search_removals;
        create trigger audit_search_delete after delete on audit_entries begin
          delete from audit_search where rowid = old.id;
        end;
        alter table config_records drop column data_deflated;
        delete from schema_migrations where name >= '0017'`);
        handle.close();
        const token = await runCli(['token', '--data-dir', upgraded.path, '--roles', 'Auditor']);
        expect(token.code, token.stderr).toBe(0);
        const second = await startServeProcess(upgraded.path);
        try {
          const me = await fetch(`${second.controlPanelUrl}/api/v1/me`, {
            headers: { Authorization: `Bearer ${token.stdout.trim()}` },
          });
          expect(me.status).toBe(200);
        } finally {
          second.child.kill('SIGTERM');
          await second.exited;
        }
      } finally {
        await upgraded.remove();
      }
    },
  );

  it('sets a setting offline (audited) that the next start uses', async () => {
    const set = await runCli([
      'config',
      'set',
      'flags:enableserviceapiauditlogroute',
      'true',
      '--data-dir',
      dir.path,
    ]);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain('Flags:EnableServiceApiAuditLogRoute=true');
    const settings = JSON.parse(await readFile(join(dir.path, 'appsettings.json'), 'utf8')) as unknown;
    expect(settings).toEqual({ Flags: { EnableServiceApiAuditLogRoute: true } });
    const bad = await runCli([
      'config',
      'set',
      'Flags:EnableServiceApiAuditLogRoute',
      'maybe',
      '--data-dir',
      dir.path,
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('must be true or false');
    const unknown = await runCli(['config', 'get', 'Nope:Key', '--data-dir', dir.path]);
    expect(unknown.code).toBe(2);

    serve = await startServeProcess(dir.path);
    const token = (await runCli(['token', '--data-dir', dir.path, '--roles', 'Auditor'])).stdout.trim();
    const page = (await (
      await fetch(`${serve.controlPanelUrl}/api/v1/audit-log?actionName=TenantSettings.Modify`, {
        headers: { Authorization: `Bearer ${token}` },
      })
    ).json()) as { items: { userName: string; parameters: Record<string, unknown> }[] };
    expect(page.items[0]).toMatchObject({
      userName: expect.stringMatching(/^cli:/),
      parameters: { key: 'Flags:EnableServiceApiAuditLogRoute', value: true },
    });
  });

  it('loses no acknowledged audit entry when killed with SIGKILL, and takes over the stale lock', async () => {
    const token = (
      await runCli(['token', '--data-dir', dir.path, '--roles', 'Operator', '--user', 'kill-test'])
    ).stdout.trim();
    const names: string[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await fetch(`${serve!.controlPanelUrl}/api/v1/app-registrations`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: `before-kill-${i}`, roles: ['Auditor'] }),
      });
      expect(response.status).toBe(201);
      names.push(`before-kill-${i}`);
    }
    serve!.child.kill('SIGKILL');
    await serve!.exited;
    serve = undefined;

    const exported = await runCli([
      'audit',
      'export',
      '--data-dir',
      dir.path,
      '--actionName',
      'AppRegistrations.Create',
    ]);
    expect(exported.code, exported.stderr).toBe(0);
    const recorded = exported.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { parameters: { name: string } }).parameters.name);
    expect(recorded.sort()).toEqual(names.sort());
  });

  it('fails an import of a file that holds no audit entry, and writes nothing', async () => {
    const page = join(dir.path, 'not-a-trail.html');
    await writeFile(page, '<html><body>Sign in</body></html>\n');
    const html = await runCli(['audit', 'import', page, '--data-dir', dir.path]);
    expect(html.code).toBe(1);
    expect(html.stdout).toContain('0 entries read, 0 added, 0 already present, 1 skipped');
    expect(html.stderr).toContain(`Nothing imported: ${page} holds no audit entry`);

    const records = join(dir.path, 'other-records.ndjson');
    await writeFile(records, `${JSON.stringify({ level: 'info', msg: 'started' })}\n`);
    const notEntries = await runCli(['audit', 'import', records, '--data-dir', dir.path]);
    expect(notEntries.code).toBe(1);
    expect(notEntries.stdout).toContain('skipped line 1: actionName (or action) is missing');

    const empty = join(dir.path, 'empty.ndjson');
    await writeFile(empty, '');
    const nothing = await runCli(['audit', 'import', empty, '--data-dir', dir.path]);
    expect(nothing.code, nothing.stderr).toBe(0);
  });

  it('imports NDJSON and page files idempotently, reporting bad lines, and exports with the endpoint filters', async () => {
    const ndjson = join(dir.path, 'entries.ndjson');
    await writeFile(
      ndjson,
      [
        JSON.stringify({
          actionName: 'Process.Deploy',
          userName: 'dana',
          timestamp: '2026-03-01T10:00:00Z',
          parameters: { processId: 'p1' },
        }),
        '{ not json',
        JSON.stringify({
          actionName: 'Process.Delete',
          userName: 'dana',
          timestamp: 'yesterday',
          parameters: {},
        }),
        '',
        JSON.stringify({
          actionName: 'Agent.Started',
          userName: 'system',
          timestamp: '2026-03-01T11:00:00',
          parameters: {},
        }),
      ].join('\n'),
    );
    const first = await runCli(['audit', 'import', ndjson, '--data-dir', dir.path]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/2 entries read, 2 added, 0 already present, 2 skipped/);
    expect(first.stdout).toContain('skipped line 2: not valid JSON');
    expect(first.stdout).toContain('skipped line 3: timestamp');
    const again = await runCli(['audit', 'import', ndjson, '--data-dir', dir.path]);
    expect(again.stdout).toMatch(/2 entries read, 0 added, 2 already present/);

    const pages = join(dir.path, 'pages.json');
    await writeFile(
      pages,
      JSON.stringify([
        {
          items: [
            {
              actionName: 'Role.Modify',
              userName: 'erin',
              timestamp: '2026-03-02T00:00:00.000Z',
              parameters: {},
            },
          ],
          pageNumber: 1,
          pageSize: 1,
          totalCount: 2,
        },
        {
          data: [
            {
              id: 29,
              action: 'EnvironmentVariable.Modify',
              user: 'erin',
              timestampUtc: '2026-03-02T01:00:00Z',
              description: 'Changed a variable',
              parameters: '{"name":"backend"}',
            },
          ],
        },
      ]),
    );
    const imported = await runCli(['audit', 'import', pages, '--data-dir', dir.path]);
    expect(imported.stdout, imported.stderr).toMatch(/2 entries read, 2 added/);

    const csv = await runCli([
      'audit',
      'export',
      '--data-dir',
      dir.path,
      '--format',
      'csv',
      '--userName',
      'ERIN',
    ]);
    const rows = csv.stdout.trim().split('\r\n');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toContain('EnvironmentVariable.Modify');
    expect(rows[1]).toContain('""name"":""backend""');
    expect(rows[1]).toMatch(/,Changed a variable,29,gatehouse$/);
    expect(rows[2]).toMatch(/,,gatehouse$/);

    // The entry keeps the id it had at its source; Gatehouse's own id is another one, and an export of it,
    // imported into another data dir, still carries the first source's id.
    const exported = await runCli(['audit', 'export', '--data-dir', dir.path, '--userName', 'erin']);
    const exportedEntries = exported.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: number; sourceId?: number; actionName: string });
    const withSource = exportedEntries.find((entry) => entry.actionName === 'EnvironmentVariable.Modify');
    expect(withSource?.sourceId).toBe(29);
    expect(exportedEntries.find((entry) => entry.actionName === 'Role.Modify')).not.toHaveProperty(
      'sourceId',
    );
    const other = await tempDir();
    try {
      const exportFile = join(other.path, 'erin.ndjson');
      await writeFile(exportFile, exported.stdout);
      const reimported = await runCli(['audit', 'import', exportFile, '--data-dir', other.path]);
      expect(reimported.stdout, reimported.stderr).toMatch(/2 entries read, 2 added/);
      const again = await runCli(['audit', 'export', '--data-dir', other.path, '--userName', 'erin']);
      const sourceIds = again.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { actionName: string; sourceId?: number })
        .map((entry) => [entry.actionName, entry.sourceId]);
      expect(sourceIds).toEqual([
        ['EnvironmentVariable.Modify', 29],
        // Role.Modify had no id at its first source: its id in the first data dir is the one it keeps.
        ['Role.Modify', exportedEntries.find((entry) => entry.actionName === 'Role.Modify')?.id],
      ]);
    } finally {
      await other.remove();
    }
    const bad = await runCli(['audit', 'export', '--data-dir', dir.path, '--startDateTimeUtc', 'soon']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--startDateTimeUtc');
  });
});
