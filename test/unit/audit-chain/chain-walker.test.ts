import { describe, expect, it } from 'vitest';
import { CHAIN_START, linkOf } from '../../../src-server/core/audit/chain/chain-hash.js';
import { ChainWalker, type ChainLink } from '../../../src-server/core/audit/chain/chain-walker.js';

function chain(count: number): ChainLink[] {
  let link = CHAIN_START;
  return Array.from({ length: count }, (_, k) => {
    const seq = k + 1;
    const canonical = JSON.stringify({ actionName: 'Role.Modify', userName: 'alice', parameters: { seq } });
    link = linkOf(link, seq, 100 + seq, canonical);
    return { seq, id: 100 + seq, hash: link, canonical };
  });
}

/** Walks links as the store-backed verifier does: no signed head, no checkpoint, the head the store records. */
function walk(links: ChainLink[], head: ChainLink) {
  const walker = new ChainWalker({
    tenant: 'acme',
    trustedKey: 'none',
    checkpoints: [],
    removals: [],
    headSeq: head.seq,
    recordedHeadHash: head.hash,
  });
  walker.check(links);
  return walker.finish();
}

describe('the chain walker without checkpoints', () => {
  it('names the deletion of the entry before the last removed when the last was renumbered into its place', () => {
    const links = chain(10);
    const head = links.at(-1)!;
    // Place 9 deleted; the entry of place 10 moved down to 9: nothing follows it, the recorded head places it.
    const renumbered = [...links.slice(0, 8), { ...head, seq: 9 }];
    expect(walk(renumbered, head).broken).toMatchObject({ kind: 'removed', seq: 9, entryId: 110 });
    // The same entry with its content changed is an edit.
    const edited = [
      ...links.slice(0, 8),
      { ...links[8]!, canonical: links[8]!.canonical.replace('alice', 'eve') },
    ];
    expect(walk(edited, links[8]!).broken).toMatchObject({ kind: 'edited', seq: 9 });
  });

  it('names a deletion in the middle removed from the next link, however many places were deleted', () => {
    const links = chain(600);
    // Places 5–304 deleted (300 entries: beyond the 256 rows looked ahead), the rest moved down.
    const renumbered = [
      ...links.slice(0, 4),
      ...links.slice(304).map((link) => ({ ...link, seq: link.seq - 300 })),
    ];
    const broken = walk(renumbered, links.at(-1)!).broken;
    expect(broken).toMatchObject({ kind: 'removed', seq: 5, entryId: 405 });
    expect(broken?.message).toContain('places 5–304');
  });
});
