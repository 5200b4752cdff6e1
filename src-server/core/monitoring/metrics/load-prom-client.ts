import type * as PromClient from 'prom-client';

/**
 * prom-client, imported at the first scrape. It is a CommonJS package: Node's loader gives its exports both by name
 * and as `default`, the esbuild bundle (out/server) as `default` only, so `default` it is.
 */
export async function loadPromClient(): Promise<typeof PromClient> {
  const loaded = (await import('prom-client')) as typeof PromClient & { default: typeof PromClient };
  return loaded.default;
}
