import { request } from 'node:http';
import type { ServeProcess } from './cli-process.js';

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One request on a connection of its own (`Connection: close`), so that successive requests are spread over a
 * cluster's workers; no agent, no retry.
 */
export function freshRequest(
  url: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path,
        method: options.method ?? 'GET',
        headers: { Connection: 'close', ...options.headers },
        agent: false,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    // A test that waits on a request must not hang on it.
    req.setTimeout(15_000, () => req.destroy(new Error(`no answer to ${path} within 15 s`)));
    req.end(options.body);
  });
}

/** Signs in with the one-time link `gatehouse serve` printed; returns a client for its management API. */
export async function signedInClient(server: ServeProcess) {
  const ticket = /#signin=(.+)$/.exec(server.signInUrl)?.[1];
  if (!ticket) throw new Error(`no sign-in link in:\n${server.output()}`);
  const session = await fetch(`${server.controlPanelUrl}/api/v1/session/sign-in`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ticket }),
  });
  if (!session.ok) throw new Error(`sign-in failed: ${session.status} ${await session.text()}`);
  const { accessToken } = (await session.json()) as { accessToken: string };
  return async (
    path: string,
    init: { method?: string; body?: unknown } = {},
  ): Promise<{ status: number; body: unknown }> => {
    const response = await fetch(`${server.controlPanelUrl}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        Authorization: `Bearer ${accessToken}`,
        ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return { status: response.status, body: (await response.json()) as unknown };
  };
}

export async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Whether a process with this pid still exists. */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}
