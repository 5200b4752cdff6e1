import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heapProfileOf } from '../../src-server/core/threads/heap-sizing.js';
import { runCli } from '../helpers/cli-process.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('GATEHOUSE_HEAP, the V8 heap sizing of gatehouse serve', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let taken: Server;
  let takenPort: number;

  beforeAll(async () => {
    dir = await tempDir();
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    takenPort = (taken.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => taken.close(resolve));
    await dir.remove();
  });

  it('is small unless told throughput, in any case and spacing', () => {
    expect(heapProfileOf({})).toBe('small');
    expect(heapProfileOf({ GATEHOUSE_HEAP: ' Throughput ' })).toBe('throughput');
    expect(heapProfileOf({ GATEHOUSE_HEAP: 'SMALL' })).toBe('small');
    expect(heapProfileOf({ GATEHOUSE_HEAP: 'fast' })).toBeUndefined();
  });

  it('refuses another value in one line, before anything starts', async () => {
    const result = await runCli(['serve', '--data-dir', dir.path, '--port', '0', '--gateway-port', '0'], {
      env: { GATEHOUSE_HEAP: 'fast' },
    });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe('GATEHOUSE_HEAP must be small or throughput, not "fast".');
  });

  it('starts serve as usual with throughput (here as far as a port that is taken)', async () => {
    const result = await runCli(
      ['serve', '--data-dir', dir.path, '--port', String(takenPort), '--gateway-port', '0'],
      { env: { GATEHOUSE_HEAP: 'throughput' } },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^Port ${takenPort} on 127\\.0\\.0\\.1 is already in use`));
  });
});
