import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli-process.js';
import { AuditStandIn } from '../../helpers/audit-stand-in.js';
import { tempDir } from '../../helpers/temp-dir.js';

const TOKEN = 'cli-pasted-token-123';

describe('gatehouse source and gatehouse audit sync', { timeout: 180_000 }, () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let standIn: AuditStandIn;
  beforeAll(async () => {
    dir = await tempDir();
    standIn = await new AuditStandIn({ token: TOKEN, envelope: 'data', pascalCase: true }).start();
    standIn.add(250, Date.now() - 300 * 60_000);
  });
  afterAll(async () => {
    await standIn.close();
    await dir.remove();
  });

  it('adds a source with its token from standard input, syncs it, resumes, lists and removes it', async () => {
    const added = await runCli(
      ['source', 'add', 'Acme', '--base-url', standIn.url, '--bearer', '--data-dir', dir.path],
      {
        input: `${TOKEN}\n`,
      },
    );
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('Added source acme (tenant acme, bearer)');
    expect(added.stdout + added.stderr).not.toContain(TOKEN);

    // Page 2 fails beyond the retries: the sync stops with what it read and says it will resume. 429s with
    // `Retry-After: 0` spend the retries without the backoff's waits (5xx backoff: stand-in.test.ts).
    standIn.faults.set(
      2,
      Array.from({ length: 6 }, () => ({ kind: 'status' as const, status: 429, retryAfter: '0' })),
    );
    const stopped = await runCli(['audit', 'sync', '--data-dir', dir.path]);
    expect(stopped.code).toBe(1);
    expect(stopped.stdout).toMatch(
      /Sync of acme stopped: 200 added, 0 already present, 0 skipped, 1 pages, 5 retries/,
    );
    expect(stopped.stdout).toContain('The next sync resumes');

    const resumed = await runCli(['audit', 'sync', '--source', 'acme', '--data-dir', dir.path]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(
      /Synced acme into tenant acme \(resumed\): 50 added, 0 already present, 0 skipped, 1 pages/,
    );

    const listed = await runCli(['source', 'list', '--data-dir', dir.path]);
    expect(listed.stdout).toMatch(
      /^acme\ttenant acme\thttp:\/\/127\.0\.0\.1:\d+\tbearer token \*{8}; synced until /m,
    );
    expect(listed.stdout).toContain('last sync completed');
    expect(listed.stdout).not.toContain(TOKEN);

    const exported = await runCli(['audit', 'export', '--tenant', 'acme', '--data-dir', dir.path]);
    // A whole tenant's export ends with its chain's evidence lines (docs/AUDIT-CHAIN.md).
    const entryLines = exported.stdout
      .trim()
      .split('\n')
      .filter((line) => !line.startsWith('{"auditChain'));
    expect(entryLines).toHaveLength(250);
    // Offline actions are audited in Gatehouse's own trail, the token masked.
    const own = await runCli([
      'audit',
      'export',
      '--actionName',
      'AuditSources.Sync',
      '--data-dir',
      dir.path,
    ]);
    expect(own.stdout.trim().split('\n')).toHaveLength(2);
    const created = await runCli([
      'audit',
      'export',
      '--actionName',
      'AuditSources.Create',
      '--data-dir',
      dir.path,
    ]);
    expect(created.stdout).toContain('"token":"********"');

    const removed = await runCli(['source', 'remove', 'acme', '--data-dir', dir.path]);
    expect(removed.stdout).toContain('Removed source acme; the entries synced into tenant acme stay.');
    const none = await runCli(['audit', 'sync', '--source', 'acme', '--data-dir', dir.path]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('No source is named acme.');

    const plain = await runCli(
      ['source', 'add', 'far', '--base-url', 'http://far.example.com', '--bearer', '--data-dir', dir.path],
      { input: 'x' },
    );
    expect(plain.code).toBe(2);
    expect(plain.stderr).toMatch(/baseUrl: Use https/);
  });

  it('updates a source: only the options given change, the secret is kept unless --new-secret reads one', async () => {
    const cli = (args: string[], input?: string) =>
      runCli(['source', ...args, '--data-dir', dir.path], input === undefined ? {} : { input });
    const added = await cli(
      [
        'add',
        'globex',
        '--base-url',
        'https://globex.example.com',
        '--token-endpoint',
        'https://login.example.com/globex/token',
        '--client-id',
        'desk',
      ],
      'cs-cli-1\n',
    );
    expect(added.code, added.stderr).toBe(0);

    // Switching to a bearer token needs the token; with it, the way of getting a token changes.
    const noToken = await cli(['update', 'globex', '--bearer']);
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain('auth.token');
    const switched = await cli(
      ['update', 'globex', '--base-url', standIn.url, '--bearer', '--new-secret'],
      TOKEN,
    );
    expect(switched.code, switched.stderr).toBe(0);
    expect(switched.stdout).toBe(
      `Changed source globex (tenant globex, bearer, new secret): ${standIn.url}\n`,
    );

    const moved = await cli(['update', 'globex', '--tenant', 'globex-eu']);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toContain('Changed source globex (tenant globex-eu, bearer, secret kept)');
    // The kept token still signs in: the sync reads the whole trail into the new tenant.
    const synced = await runCli(['audit', 'sync', '--source', 'globex', '--data-dir', dir.path]);
    expect(synced.code, synced.stdout + synced.stderr).toBe(0);
    expect(synced.stdout).toMatch(/Synced globex into tenant globex-eu: 250 added/);

    expect((await cli(['update', 'globex'])).stderr).toContain('Nothing to change');
    const unknown = await cli(['update', 'nope', '--tenant', 'x']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No source is named nope.');
    const modified = await runCli([
      'audit',
      'export',
      '--actionName',
      'AuditSources.Modify',
      '--data-dir',
      dir.path,
    ]);
    expect(modified.stdout.trim().split('\n')).toHaveLength(2);
    expect(modified.stdout).not.toContain(TOKEN);
    expect(modified.stdout).toContain('"token":"********"');
  });
});
