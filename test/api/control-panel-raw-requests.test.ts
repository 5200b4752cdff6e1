import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { sendRaw } from './gateway/gateway-fixture.js';

let server: TestServer;
let host: string;

beforeAll(async () => {
  server = await startTestServer();
  host = new URL(server.url).host;
});
afterAll(async () => {
  await server.close();
});

/** The status and the problem+json body of a raw answer. */
function problemOf(answer: string): { status: number; contentType: string; body: Record<string, unknown> } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
    contentType: /content-type: ([^\r\n]+)/i.exec(head)?.[1] ?? '',
    body: JSON.parse(body) as Record<string, unknown>,
  };
}

describe('requests the Control Panel’s HTTP parser refuses', () => {
  it('answers Content-Length together with Transfer-Encoding with problem+json, not a bare status line', async () => {
    const answer = await sendRaw(
      server.url,
      `POST /api/v1/apis HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    );
    const problem = problemOf(answer);
    expect(problem.status).toBe(400);
    expect(problem.contentType).toMatch(/^application\/problem\+json/);
    expect(problem.body).toMatchObject({
      status: 400,
      code: 'GH_ERR_MALFORMED_REQUEST',
      detail: 'The request is not valid HTTP.',
    });
  });

  it('answers headers larger than it accepts with 431 problem+json naming the Control Panel', async () => {
    const answer = await sendRaw(
      server.url,
      `GET /api/v1/me HTTP/1.1\r\nHost: ${host}\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    const problem = problemOf(answer);
    expect(problem.status).toBe(431);
    expect(problem.body).toMatchObject({
      status: 431,
      code: 'GH_ERR_HEADERS_TOO_LARGE',
      detail: 'The request headers are larger than the Control Panel accepts.',
    });
  });

  it('answers CONNECT with 501 problem+json instead of dropping the connection', async () => {
    const problem = problemOf(
      await sendRaw(server.url, `CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n`),
    );
    expect(problem.status).toBe(501);
    expect(problem.contentType).toMatch(/^application\/problem\+json/);
    expect(problem.body).toMatchObject({ status: 501, code: 'GH_ERR_CONNECT_NOT_SUPPORTED' });
  });
});
