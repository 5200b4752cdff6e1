import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServeProcess, type ServeProcess } from '../helpers/cli-process.js';
import { tempDir } from '../helpers/temp-dir.js';

const LINK_LINE = /^Sign in to the console \(one-time link, until \S+\): (http:\/\/\S+)$/m;

async function signIn(controlPanelUrl: string, signInUrl: string): Promise<Response> {
  const ticket = new URL(signInUrl).hash.replace(/^#signin=/, '');
  return fetch(`${controlPanelUrl}/api/v1/session/sign-in`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ticket }),
  });
}

describe('gatehouse link', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let serve: ServeProcess | undefined;

  beforeAll(async () => {
    dir = await tempDir();
  });
  afterAll(async () => {
    serve?.child.kill('SIGKILL');
    await dir.remove();
  });

  it('says plainly when no server runs on the data dir', async () => {
    const result = await runCli(['link', '--data-dir', dir.path]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      `No Gatehouse server is running on the data dir ${dir.path}. Start it with "npm start" or ` +
        '"npx gatehouse serve" (which print a sign-in link themselves), or name its data dir with --data-dir.',
    );
  });

  it('prints a fresh one-time link for the running server, after the one serve printed was used', async () => {
    serve = await startServeProcess(dir.path, ['--set', 'Flags:EnableServiceApiAuditLogRoute=true']);
    const first = await signIn(serve.controlPanelUrl, serve.signInUrl);
    expect(first.status).toBe(200);
    expect((await signIn(serve.controlPanelUrl, serve.signInUrl)).status).toBe(401);

    const result = await runCli(['link', '--data-dir', dir.path]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const link = LINK_LINE.exec(result.stdout)?.[1];
    expect(link?.startsWith(`${serve.controlPanelUrl}/#signin=`)).toBe(true);
    const session = await signIn(serve.controlPanelUrl, link!);
    expect(session.status).toBe(200);
    const { accessToken, roles } = (await session.json()) as { accessToken: string; roles: string[] };
    expect(roles).toEqual(['Operator']);
    expect((await signIn(serve.controlPanelUrl, link!)).status).toBe(401);

    // Another identity on request; the audit trail names who asked for a link.
    const auditor = await runCli(['link', '--data-dir', dir.path, '--roles', 'Auditor', '--user', 'support']);
    const auditorLink = LINK_LINE.exec(auditor.stdout)![1]!;
    expect(await (await signIn(serve.controlPanelUrl, auditorLink)).json()).toMatchObject({
      userName: 'support',
      roles: ['Auditor'],
    });
    const audit = (await (
      await fetch(`${serve.controlPanelUrl}/api/v1/audit-log?actionName=Session.CreateSignInLink`, {
        headers: { Authorization: `Bearer ${accessToken}` },
      })
    ).json()) as { items: { userName: string; statusCode: number }[] };
    expect(audit.items.map((entry) => entry.userName)).toContain('support');
    expect(JSON.stringify(audit)).not.toContain(auditorLink.split('#signin=')[1]);

    const unknownRole = await runCli(['link', '--data-dir', dir.path, '--roles', 'Boss']);
    expect(unknownRole.code).toBe(2);
    expect(unknownRole.stderr).toContain('Unknown role Boss');
  });

  it('says so when the server is gone', async () => {
    serve!.child.kill('SIGTERM');
    await serve!.exited;
    const result = await runCli(['link', '--data-dir', dir.path]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('No Gatehouse server is running');
  });
});
