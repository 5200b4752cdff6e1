import { generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHAIN_START, linkOf } from '../../../src-server/core/audit/chain/chain-hash.js';
import {
  ChainSigner,
  checkpointText,
  exportHeadText,
} from '../../../src-server/core/audit/chain/chain-signer.js';
import {
  ExportParser,
  UnverifiableExportError,
  verifyParsedExport,
} from '../../../src-server/core/audit/chain/export-verifier.js';

const signer = ChainSigner.fromPem(
  generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
);
const SIGNED_AT = Date.parse('2026-03-01T12:00:00.000Z');

/** An export as Gatehouse writes it: entries (newest first) with their links, a checkpoint, the trailer. */
function exportOf(count: number, tenant = 'acme'): string[] {
  let link = CHAIN_START;
  const lines: string[] = [];
  for (let seq = 1; seq <= count; seq++) {
    const id = 100 + seq;
    const entry = JSON.stringify({
      actionName: 'Role.Modify',
      userName: seq % 2 ? 'alice' : 'bob',
      timestamp: new Date(SIGNED_AT - (count - seq) * 1000).toISOString(),
      parameters: { seq, note: `n\u00e9${seq}` },
      resources: [],
      category: 'general',
    });
    link = linkOf(link, seq, id, entry);
    lines.unshift(
      `{"id":${id},${entry.slice(1, -1)},"tenant":"${tenant}","chain":{"seq":${seq},"hash":"${link}"}}`,
    );
  }
  const checkpoint = { tenant, seq: count, hash: link, signedAt: SIGNED_AT };
  lines.push(
    JSON.stringify({
      auditChainCheckpoint: {
        seq: count,
        hash: link,
        signedAt: new Date(SIGNED_AT).toISOString(),
        publicKey: signer.publicKey,
        signature: signer.sign(checkpointText(checkpoint)),
      },
    }),
    JSON.stringify({
      auditChain: {
        version: 2,
        tenant,
        publicKey: signer.publicKey,
        headSeq: count,
        headHash: link,
        signedAt: new Date(SIGNED_AT).toISOString(),
        signature: signer.sign(
          exportHeadText({ tenant, headSeq: count, headHash: link, signedAt: SIGNED_AT }),
        ),
      },
    }),
  );
  return lines;
}

/** The lines with the entry at `seq` dropped and every later entry moved down a place (renumbered). */
function deleteAndRenumber(lines: readonly string[], seq: number, count = 1): string[] {
  return lines.flatMap((line) => {
    const match = /"chain":\{"seq":(\d+),/.exec(line);
    if (!match) return [line];
    const place = Number(match[1]);
    if (place >= seq && place < seq + count) return [];
    return [place > seq ? line.replace(match[0], `"chain":{"seq":${place - count},`) : line];
  });
}

function verifyLines(lines: readonly string[], pinned?: string) {
  const parser = new ExportParser();
  for (const line of lines) parser.add(line);
  return verifyParsedExport(parser.parsed, pinned);
}

describe('the export verifier', () => {
  it('finds an untouched export intact, in any line order', () => {
    const lines = exportOf(12);
    expect(verifyLines(lines)).toMatchObject({ tenant: 'acme', intact: true, entries: 12, checkpoints: 1 });
    expect(verifyLines([...lines].reverse()).intact).toBe(true);
  });

  it('refuses a file without a chain, and a checkpoint re-signed with another key when the key is pinned', () => {
    expect(() => verifyLines(['{"id":1,"actionName":"A.B"}'])).toThrow(UnverifiableExportError);
    const other = ChainSigner.fromPem(
      generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    );
    expect(verifyLines(exportOf(3), other.publicKey).broken).toMatchObject({ kind: 'edited', seq: 3 });
  });

  it('names what happened to an edited, removed, duplicated or swapped line', () => {
    const lines = exportOf(10);
    // Newest first: line 0 is place 10, line 9 place 1.
    const edited = lines.map((line, k) =>
      k === 6 ? line.replace('"userName":"bob"', '"userName":"eve"') : line,
    );
    expect(verifyLines(edited).broken).toMatchObject({ kind: 'edited', seq: 4 });
    expect(verifyLines(lines.filter((_, k) => k !== 4)).broken).toMatchObject({ kind: 'removed', seq: 7 });
    expect(verifyLines([...lines, lines[3]!]).broken).toMatchObject({ kind: 'inserted', seq: 7 });
    const swapChains = (a: string, b: string): [string, string] => {
      const chainOf = (line: string) => line.slice(line.indexOf(',"chain":'));
      return [a.replace(chainOf(a), chainOf(b)), b.replace(chainOf(b), chainOf(a))];
    };
    const [x, y] = swapChains(lines[2]!, lines[3]!);
    const swapped = lines.map((line, k) => (k === 2 ? x : k === 3 ? y : line));
    expect(verifyLines(swapped).broken).toMatchObject({ kind: 'reordered', seq: 7 });
  });

  it('names a deletion removed whether or not the entries after it were renumbered', () => {
    const lines = exportOf(10);
    const one = verifyLines(deleteAndRenumber(lines, 4));
    expect(one.broken).toMatchObject({ kind: 'removed', seq: 4, entryId: 105 });
    expect(one.broken?.message).toContain('places 4–4');
    expect(one.entries).toBe(3);
    const three = verifyLines(deleteAndRenumber(lines, 2, 3)).broken;
    expect(three).toMatchObject({ kind: 'removed', seq: 2, entryId: 105 });
    expect(three?.message).toContain('was recorded at place 5');
    // The first entry, and the one before the last: the signed head places the last entry.
    expect(verifyLines(deleteAndRenumber(lines, 1)).broken).toMatchObject({ kind: 'removed', seq: 1 });
    expect(verifyLines(deleteAndRenumber(lines, 9)).broken).toMatchObject({ kind: 'removed', seq: 9 });
  });

  it('finds the last entries cut from an export by its signed head', () => {
    const lines = exportOf(10);
    // Newest first: lines 0–2 are places 10–8.
    const cut = verifyLines(lines.slice(3));
    expect(cut.broken).toMatchObject({ kind: 'removed', seq: 8 });
    expect(cut.broken?.message).toContain('places 8–10');
    // Moving the head down to hide the cut breaks its signature.
    const trailer = JSON.parse(lines.at(-1)!) as { auditChain: Record<string, unknown> };
    trailer.auditChain.headSeq = 7;
    const rewritten = [...lines.slice(3, -1), JSON.stringify(trailer)];
    expect(verifyLines(rewritten).broken).toMatchObject({ kind: 'edited', seq: 7 });
    // A trailer without a signed head is not taken at its word.
    const unsigned = [
      ...lines.slice(3, -1),
      JSON.stringify({
        auditChain: { version: 1, tenant: 'acme', publicKey: signer.publicKey, headSeq: 7 },
      }),
    ];
    expect(verifyLines(unsigned).broken).toMatchObject({ kind: 'edited' });
    expect(verifyLines(unsigned).broken?.message).toContain('version 1');
  });

  it('names an entry appended with a valid link beyond the signed head inserted', () => {
    const lines = exportOf(10);
    const { headHash } = (JSON.parse(lines.at(-1)!) as { auditChain: { headHash: string } }).auditChain;
    const entry =
      '{"actionName":"Role.Modify","userName":"eve","timestamp":"2026-03-01T12:00:01.000Z","parameters":{},"resources":[]}';
    const link = linkOf(headHash, 11, 999, entry);
    const appended = [
      `{"id":999,${entry.slice(1, -1)},"tenant":"acme","chain":{"seq":11,"hash":"${link}"}}`,
      ...lines,
    ];
    expect(verifyLines(appended).broken).toMatchObject({ kind: 'inserted', seq: 11 });
  });

  it('never throws on arbitrary lines but to say the file has no chain (fuzz)', () => {
    const line = fc.oneof(
      fc.string(),
      fc.jsonValue().map((value) => JSON.stringify(value)),
      fc
        .record({
          id: fc.oneof(fc.integer(), fc.string()),
          chain: fc.oneof(
            fc.record({
              seq: fc.integer(),
              hash: fc.oneof(fc.string(), fc.stringMatching(/^[0-9a-f]{64}$/)),
            }),
            fc.jsonValue(),
          ),
          actionName: fc.string(),
        })
        .map((value) => JSON.stringify(value)),
      fc
        .record({
          auditChainCheckpoint: fc.record({
            seq: fc.integer(),
            hash: fc.string(),
            signedAt: fc.string(),
            publicKey: fc.string(),
            signature: fc.string(),
          }),
        })
        .map((value) => JSON.stringify(value)),
      fc.jsonValue().map((value) => JSON.stringify({ auditChain: value })),
      fc.jsonValue().map((value) => JSON.stringify({ auditChainRemoval: value })),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), fc.boolean(), (lines, withTrailer) => {
        const all = withTrailer
          ? [
              ...lines,
              JSON.stringify({
                auditChain: { version: 1, tenant: 'x', publicKey: signer.publicKey, headSeq: 0 },
              }),
            ]
          : lines;
        try {
          const verdict = verifyLines(all);
          expect(typeof verdict.intact).toBe('boolean');
        } catch (error) {
          expect(error).toBeInstanceOf(UnverifiableExportError);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('finds every one-character change of an entry line (fuzz)', () => {
    const lines = exportOf(8);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 7 }),
        fc.nat(),
        fc.constantFrom('a', 'b', 'c', 'x', 'y', 'z', '0', '1', '5', '9'),
        (lineIndex, position, replacement) => {
          const line = lines[lineIndex]!;
          const at = position % line.length;
          if (line[at] === replacement) return;
          const changed = lines.map((text, k) =>
            k === lineIndex ? text.slice(0, at) + replacement + text.slice(at + 1) : text,
          );
          expect(
            verifyLines(changed).intact,
            `${line.slice(at - 12, at)}[${line[at]}→${replacement}]${line.slice(at + 1, at + 12)}`,
          ).toBe(false);
        },
      ),
      { numRuns: 400 },
    );
  });
});
