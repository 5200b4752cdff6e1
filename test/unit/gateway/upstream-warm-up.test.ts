import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { UpstreamDispatchers } from '../../../src-server/gateway/proxy/upstream-dispatchers.js';

const PLAIN_TLS = { verify: true } as const;

describe('the upstream client of a gateway with passthroughs', () => {
  it('is loaded a moment after warmUpSoon, before any request asks for it', async () => {
    const dispatchers = new UpstreamDispatchers();
    try {
      expect(dispatchers.for('http:', PLAIN_TLS)).toBeUndefined();
      dispatchers.warmUpSoon(10);
      expect(dispatchers.for('http:', PLAIN_TLS)).toBeUndefined();
      const deadline = Date.now() + 5_000;
      while (dispatchers.for('http:', PLAIN_TLS) === undefined && Date.now() < deadline) await sleep(10);
      expect(dispatchers.for('http:', PLAIN_TLS)).toBeDefined();
    } finally {
      await dispatchers.destroy();
    }
  });

  it('is not loaded when the gateway closes before the moment comes', async () => {
    const dispatchers = new UpstreamDispatchers();
    dispatchers.warmUpSoon(50);
    await dispatchers.destroy();
    await sleep(100);
    expect(dispatchers.for('http:', PLAIN_TLS)).toBeUndefined();
  });
});
