import type { PassthroughHeaderEntry } from '../../../../api/types.js';

/** Where one forwarded header value came from. */
export type HeaderOrigin =
  { kind: 'rule'; number: number; action: 'Add' | 'Overwrite' } | { kind: 'request' } | { kind: 'gateway' };

export interface ForwardedHeader {
  name: string;
  value: string;
  origin: HeaderOrigin;
}

/**
 * The forwarded headers of a preview, each with the header rule that produced it, or the sample request, or the
 * gateway (host, `x-forwarded-*`, `traceparent`). The rules are replayed in order on the sample's header names, as
 * the gateway applies them: Add appends, Overwrite replaces, Remove removes.
 */
export function headerOrigins(
  forwarded: Record<string, string | string[]>,
  rules: readonly { entry: PassthroughHeaderEntry; number: number }[],
  sampleHeaders: Record<string, string | string[]> | undefined,
): ForwardedHeader[] {
  const origins = new Map<string, HeaderOrigin[]>();
  for (const [name, value] of Object.entries(sampleHeaders ?? {})) {
    const count = Array.isArray(value) ? value.length : 1;
    origins.set(
      name.toLowerCase(),
      Array.from({ length: count }, () => ({ kind: 'request' as const })),
    );
  }
  for (const { entry, number } of rules) {
    const name = entry.name.toLowerCase();
    if (entry.action === 'Remove') origins.delete(name);
    else {
      const origin: HeaderOrigin = { kind: 'rule', number, action: entry.action };
      origins.set(name, entry.action === 'Add' ? [...(origins.get(name) ?? []), origin] : [origin]);
    }
  }
  return Object.entries(forwarded).flatMap(([name, value]) => {
    const values = Array.isArray(value) ? value : [value];
    const known = origins.get(name.toLowerCase()) ?? [];
    // What the gateway adds comes after what the request and the rules left (x-forwarded-for after the client's).
    return values.map((one, index) => ({
      name,
      value: one,
      origin: known[index] ?? { kind: 'gateway' as const },
    }));
  });
}

export function describeOrigin(origin: HeaderOrigin): string {
  if (origin.kind === 'rule') return `Header ${origin.number} (${origin.action})`;
  if (origin.kind === 'request') return 'the sample request';
  return 'the gateway';
}
