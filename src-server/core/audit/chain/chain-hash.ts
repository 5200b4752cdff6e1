import { createHash } from 'node:crypto';

/** The link "before" a chain's first entry: 64 zeros. */
export const CHAIN_START = '0'.repeat(64);

/**
 * The content hash of an entry: SHA-256 of its canonical serialization, which is the entry's JSON as Gatehouse
 * stores it (the `entry` column; in an export, the line's object without `id`, `tenant` and `chain`, written
 * back with ECMAScript `JSON.stringify`). docs/AUDIT-CHAIN.md defines it.
 */
export function contentDigest(canonicalJson: string): string {
  return createHash('sha256').update(canonicalJson).digest('hex');
}

/**
 * The link hash of the entry at `seq` with Gatehouse's `id`: SHA-256 of `<previous link>:<seq>:<id>:<content
 * hash>` (the id is in it, so the id an export shows cannot be changed either).
 */
export function linkHash(previous: string, seq: number, id: number, content: string): string {
  return createHash('sha256').update(`${previous}:${seq}:${id}:${content}`).digest('hex');
}

/** Content and link in one call (what writing and verifying do for each entry). */
export function linkOf(previous: string, seq: number, id: number, canonicalJson: string): string {
  return linkHash(previous, seq, id, contentDigest(canonicalJson));
}
