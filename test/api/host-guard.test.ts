import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** Sends a request with an arbitrary Host header (fetch does not let a caller choose it). */
function getWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: target.hostname, port: target.port, path: '/api/v1/activities', headers: { Host: host } },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('Control Panel Host header guard (DNS rebinding)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ settings: { 'ControlPanel:AllowedHosts': 'console.internal' } });
  });
  afterAll(() => server.close());

  it('refuses a foreign host name before anything else runs', async () => {
    const port = new URL(server.url).port;
    for (const host of [
      `evil.example:${port}`,
      'attacker.test',
      `127.0.0.1.nip.io:${port}`,
      // Echoed into a sign-in link, this would send its ticket to evil.example.
      `127.0.0.1:${port}@evil.example`,
      `localhost:${port}/x`,
    ]) {
      const response = await getWithHost(server.url, host);
      expect(response.status).toBe(421);
      expect(JSON.parse(response.body)).toMatchObject({ status: 421, title: 'Misdirected Request' });
    }
  });

  it('serves the bound address, localhost and configured names', async () => {
    const port = new URL(server.url).port;
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `LOCALHOST:${port}`,
      'console.internal',
      `[::1]:${port}`,
    ]) {
      // 401: the guard let it through to authentication.
      expect((await getWithHost(server.url, host)).status).toBe(401);
    }
  });
});
