import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServeProcess, type ServeProcess } from '../helpers/cli-process.js';
import { tempDir } from '../helpers/temp-dir.js';

/**
 * The management routes other than the audit log's load at the first request under their group's prefixes
 * (control/http/route-group.ts): through the built CLI, where each group is a chunk of its own, every group
 * answers, answers a wrong method and an unknown path as one router would, and the OpenAPI document asked first
 * lists them all.
 */
describe('gatehouse serve: route groups loaded at their first request', { timeout: 120_000 }, () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let serve: ServeProcess;
  let token: string;

  const get = (path: string, method = 'GET') =>
    fetch(`${serve.controlPanelUrl}${path}`, { method, headers: { Authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    dir = await tempDir();
    token = (
      await runCli(['token', '--data-dir', dir.path, '--roles', 'Operator,Auditor,Administrator'])
    ).stdout.trim();
    serve = await startServeProcess(dir.path, ['--no-sign-in-link'], {
      env: { Flags__EnableServiceApiAuditLogRoute: 'true' },
    });
  });
  afterAll(async () => {
    serve.child.kill('SIGTERM');
    await serve.exited;
    await dir.remove();
  });

  it('lists every group in the OpenAPI document asked before any of them', async () => {
    const response = await fetch(`${serve.controlPanelUrl}/swagger/v1/swagger.json`);
    expect(response.status).toBe(200);
    const paths = Object.keys(((await response.json()) as { paths: Record<string, unknown> }).paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/.well-known/openid-configuration',
        '/api/v1/me',
        '/api/v1/tenant/settings',
        '/api/v1/tenant/backups',
        '/api/v1/apis',
        '/api/v1/apis/{apiId}/passthrough/preview',
        '/api/v1/audit-sources',
        '/api/v1/monitoring/summary',
        '/api/v1/instances',
        '/api/v1/audit-log',
      ]),
    );
  });

  it.each([
    '/api/v1/me',
    '/api/v1/tenant/settings',
    '/api/v1/environments',
    '/api/v1/audit-sources',
    '/api/v1/monitoring/summary',
    '/api/v1/instances',
    '/api/v1/audit-log?PageSize=1',
  ])('answers %s', async (path) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('matches paths without regard to case, as Express does', async () => {
    const response = await get('/API/V1/Instances');
    expect(response.status).toBe(200);
  });

  it('answers a method a lazily loaded path lacks with 405 and its Allow', async () => {
    const response = await get('/api/v1/monitoring/summary', 'DELETE');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('answers a path under a group prefix that no route has with the 404 of any unknown path', async () => {
    const underPrefix = await get('/api/v1/monitoring/nothing-here');
    const elsewhere = await get('/api/v1/nothing-here');
    expect(underPrefix.status).toBe(404);
    expect(elsewhere.status).toBe(404);
    expect(underPrefix.headers.get('content-type')).toBe(elsewhere.headers.get('content-type'));
  });
});
