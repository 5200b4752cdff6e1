import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const FLAG = 'Flags:EnableServiceApiAuditLogRoute';

async function problemOf(response: Response) {
  const body = (await response.json()) as Record<string, unknown>;
  // traceId differs per request; everything else must match.
  const { traceId: _traceId, instance: _instance, detail, ...rest } = body;
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    detail: String(detail).replace(/\/[^ ]*\./, '<path>.'),
    ...rest,
  };
}

async function swaggerTags(server: TestServer) {
  const document = (await (await fetch(`${server.url}/swagger/v1/swagger.json`)).json()) as {
    tags: { name: string }[];
    paths: Record<string, unknown>;
  };
  return { tags: document.tags.map((t) => t.name), paths: Object.keys(document.paths) };
}

describe('the audit log route flag', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('is off by default: the route answers exactly like an unknown route and is absent from the OpenAPI document', async () => {
    server = await startTestServer();
    const audit = await server.api('/api/v1/audit-log');
    const unknown = await server.api('/api/v1/audit-lag');
    expect(audit.status).toBe(404);
    expect(await problemOf(audit)).toEqual(await problemOf(unknown));
    const anonymous = await server.api('/api/v1/audit-log', { token: null });
    expect(anonymous.status).toBe(404);
    const { tags, paths } = await swaggerTags(server);
    expect(tags).not.toContain('AuditLog');
    expect(paths.some((path) => path.includes('audit-log'))).toBe(false);
  });

  it('takes effect only after the Control Panel restarts, and only an Operator may change it', async () => {
    server = await startTestServer();
    const denied = await server.api(`/api/v1/tenant/settings/${FLAG}`, {
      method: 'PUT',
      roles: ['Administrator'],
      body: JSON.stringify({ value: true }),
    });
    expect(denied.status).toBe(403);

    const set = await server.api(`/api/v1/tenant/settings/${FLAG}`, {
      method: 'PUT',
      body: JSON.stringify({ value: true }),
    });
    expect(set.status).toBe(200);
    expect(await set.json()).toMatchObject({
      key: FLAG,
      effectiveValue: false,
      configuredValue: true,
      pendingRestart: true,
    });
    expect((await server.api('/api/v1/audit-log')).status).toBe(404);

    const status = (await (await server.api('/api/v1/tenant/control-panel')).json()) as {
      startedAt: string;
      pendingRestart: boolean;
    };
    expect(status.pendingRestart).toBe(true);

    const restartDenied = await server.api('/api/v1/tenant/control-panel/restart', {
      method: 'POST',
      roles: ['Administrator'],
    });
    expect(restartDenied.status).toBe(403);
    const restart = await server.api('/api/v1/tenant/control-panel/restart', { method: 'POST' });
    expect(restart.status).toBe(202);

    const after = await waitFor(async () => {
      const response = await server!.api('/api/v1/tenant/control-panel').catch(() => undefined);
      if (!response?.ok) return undefined;
      const body = (await response.json()) as {
        startedAt: string;
        restartCount: number;
        auditLogRouteEnabled: boolean;
      };
      return body.restartCount === 1 ? body : undefined;
    });
    expect(after.auditLogRouteEnabled).toBe(true);

    const list = await server.api('/api/v1/audit-log');
    expect(list.status).toBe(200);
    const page = (await list.json()) as { items: { actionName: string; userName: string }[] };
    const actions = page.items.map((item) => item.actionName);
    expect(actions).toContain('TenantSettings.Modify');
    expect(actions).toContain('ControlPanel.Restart');
    const { tags } = await swaggerTags(server);
    expect(tags).toContain('AuditLog');
    const swaggerUi = await fetch(`${server.url}/swagger/index.html`);
    expect(swaggerUi.status).toBe(200);
    expect(await swaggerUi.text()).toContain('swagger-ui-bundle.js');
  });

  it('keeps the gateway serving while the Control Panel restarts', async () => {
    server = await startTestServer();
    const gateway = new URL(server.gatewayUrl);
    // One keep-alive connection to the gateway, opened before the restart and reused after it.
    const agent = new (await import('node:http')).Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ status: number; socketId: unknown }>((resolve, reject) => {
        const req = request(
          { host: gateway.hostname, port: gateway.port, path: '/nothing', agent },
          (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode ?? 0, socketId: req.socket }));
          },
        );
        req.on('error', reject);
        req.end();
      });
    const first = await get();
    await server.gatehouse.restartControlPanel();
    const second = await get();
    expect(first.status).toBe(404);
    expect(second.status).toBe(404);
    expect(second.socketId).toBe(first.socketId);
    agent.destroy();
  });

  it('honours the environment-variable layer', async () => {
    server = await startTestServer({ env: { Flags__EnableServiceApiAuditLogRoute: 'true' } });
    expect((await server.api('/api/v1/audit-log')).status).toBe(200);
  });
});

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
