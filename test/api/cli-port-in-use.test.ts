import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli-process.js';
import { tempDir } from '../helpers/temp-dir.js';

/** A port some other program holds. */
async function occupiedPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, server };
}

describe('gatehouse serve on a port that is taken', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let taken: { port: number; server: Server };

  beforeAll(async () => {
    dir = await tempDir();
    taken = await occupiedPort();
  });
  afterAll(async () => {
    await new Promise((resolve) => taken.server.close(resolve));
    await dir.remove();
  });

  for (const [option, other] of [
    ['--gateway-port', '--port'],
    ['--port', '--gateway-port'],
  ] as const) {
    it(`says so in one line naming ${option}, with no log records or stack traces`, async () => {
      const result = await runCli(['serve', '--data-dir', dir.path, option, String(taken.port), other, '0'], {
        env: { Logging__Level: 'info' },
      });
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(
          new RegExp(
            `^Port ${taken.port} on 127\\.0\\.0\\.1 is already in use\\. Choose another with ${option}`,
          ),
        ),
      ]);
      const everything = result.stdout + result.stderr;
      expect(everything).not.toMatch(/"stack"|\bat .+\.js:\d+|"level":50/);
    });
  }

  it('names both ports in one line when both are taken', async () => {
    const other = await occupiedPort();
    try {
      const result = await runCli(
        ['serve', '--data-dir', dir.path, '--gateway-port', String(taken.port), '--port', String(other.port)],
        { env: { Logging__Level: 'info' } },
      );
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n')).toEqual([
        `Port ${taken.port} on 127.0.0.1 is already in use. Choose another with --gateway-port or the agent group's port ` +
          `(0 picks a free one). ` +
          `The Control Panel's port ${other.port} on 127.0.0.1 is in use too: choose another with --port.`,
      ]);
    } finally {
      await new Promise((resolve) => other.server.close(resolve));
    }
  });

  it('says in one line, without a stack, when the host does not resolve or the data dir is a file', async () => {
    const file = join(dir.path, 'not-a-directory');
    await writeFile(file, '');
    for (const [args, message] of [
      [['--host', 'no-such-host.invalid'], /^gatehouse serve failed: getaddrinfo \w+ no-such-host\.invalid$/],
      [['--data-dir', file], /^gatehouse serve failed: \w+: .*not-a-directory/],
    ] as const) {
      const result = await runCli([
        'serve',
        '--data-dir',
        dir.path,
        '--port',
        '0',
        '--gateway-port',
        '0',
        ...args,
      ]);
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(message)]);
    }
  });
});
