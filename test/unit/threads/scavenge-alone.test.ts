import { describe, expect, it } from 'vitest';
import { outputOfFixture } from './young-generation-child.js';

/**
 * The fixture's scavenges as V8 traced them once it allocates: how many, and how many a helper thread took part in.
 */
async function scavengesOfChild(args: string[]): Promise<{ scavenges: number; helped: number }> {
  const stdout = await outputOfFixture('scavenges-traced.ts', args, ['--trace-gc-nvp']);
  const lines = stdout
    .slice(stdout.indexOf('allocating\n'))
    .split('\n')
    .filter((line) => / gc=s /.test(line));
  const helped = lines.filter((line) => {
    const background = /background\.scavenge\.parallel=([\d.]+)/.exec(line);
    return background !== null && Number(background[1]) > 0;
  });
  return { scavenges: lines.length, helped: helped.length };
}

describe("serve's scavenges", () => {
  it('run on the main thread alone, also after a worker thread started', async () => {
    const { scavenges, helped } = await scavengesOfChild(['serve']);
    expect(scavenges).toBeGreaterThan(10);
    expect(helped).toBe(0);
  });

  it("share V8's helper threads under V8's defaults (what serve turns off)", async () => {
    const { scavenges, helped } = await scavengesOfChild(['defaults']);
    expect(scavenges).toBeGreaterThan(10);
    expect(helped).toBeGreaterThan(0);
  });
});
