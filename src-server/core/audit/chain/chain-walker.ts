import { CHAIN_START, linkOf } from './chain-hash.js';
import { checkpointText, exportHeadText, removalText, verifySignature } from './chain-signer.js';

/** One entry as the verifier reads it: its place, its link hash and its canonical serialization. */
export interface ChainLink {
  seq: number;
  hash: string;
  canonical: string;
  /** Gatehouse's id of the entry (part of its link). */
  id: number;
}

export interface SignedCheckpoint {
  seq: number;
  hash: string;
  signedAt: number;
  publicKey: string;
  signature: string;
}

export interface SignedRemoval {
  fromSeq: number;
  toSeq: number;
  count: number;
  prevHash: string;
  lastHash: string;
  policy: string;
  removedAt: number;
  publicKey: string;
  signature: string;
}

/** What the verifier knows besides the entries. */
export interface ChainEvidence {
  tenant: string;
  checkpoints: SignedCheckpoint[];
  removals: SignedRemoval[];
  /** The public key the checkpoints and removal records must be signed with. */
  trustedKey: string;
  /** The chain's last place as the store records it, or as an export's signed head states it. */
  headSeq?: number;
  /** The link the store records at `headSeq` (unsigned: it only helps tell a renumbering). */
  recordedHeadHash?: string;
  /** An export's signed head (its last place and link, `headSeq` is its place): the chain must end there. */
  signedHead?: SignedCheckpoint;
}

export type BreakKind = 'edited' | 'removed' | 'inserted' | 'reordered';

export interface ChainBreak {
  kind: BreakKind;
  /** The chain place where it breaks. */
  seq: number;
  entryId?: number;
  message: string;
}

export interface ChainVerdict {
  tenant: string;
  intact: boolean;
  /** Entries whose links were checked before the verdict. */
  entries: number;
  /** Entries removed by a signed retention or history removal, bridged. */
  removedByPolicy: number;
  checkpoints: number;
  lastCheckpoint?: { seq: number; signedAt: string };
  broken?: ChainBreak;
}

/** Rows after a break examined to tell a reordering or an insertion from an edit. */
const LOOKAHEAD = 256;
/**
 * The most places a renumbering after a deletion is searched back over (one SHA-256 each, and only once, at the
 * break): a deletion of more entries before a renumbering is reported as an edit.
 */
const MAX_RENUMBERING = 1_000_000;

/**
 * Walks a tenant's chain in place order and stops at the first broken link (docs/AUDIT-CHAIN.md). Gaps are
 * bridged only by removal records signed with the trusted key whose range and previous link fit; every checkpoint
 * must be signed with the trusted key and match the chain where it falls.
 */
export class ChainWalker {
  private seq = 0;
  private link = CHAIN_START;
  private checked = 0;
  private removedByPolicy = 0;
  private broken: ChainBreak | undefined;
  private readonly checkpointAt = new Map<number, SignedCheckpoint>();
  private readonly removalFrom = new Map<number, SignedRemoval>();
  /** The link the chain must have at `evidence.headSeq`, from a validly signed head. */
  private readonly headHash: string | undefined;

  constructor(private readonly evidence: ChainEvidence) {
    const head = evidence.signedHead;
    if (head) {
      const signed =
        head.publicKey === evidence.trustedKey &&
        verifySignature(
          exportHeadText({
            tenant: evidence.tenant,
            headSeq: head.seq,
            headHash: head.hash,
            signedAt: head.signedAt,
          }),
          head.signature,
          evidence.trustedKey,
        );
      if (signed) this.headHash = head.hash;
      else
        this.broken = {
          kind: 'edited',
          seq: head.seq,
          message: `The export's head (place ${head.seq}) is not signed by the trusted key: its auditChain line was edited.`,
        };
    }
    for (const checkpoint of evidence.checkpoints) {
      if (
        checkpoint.publicKey !== evidence.trustedKey ||
        !verifySignature(
          checkpointText({ tenant: evidence.tenant, ...checkpoint }),
          checkpoint.signature,
          evidence.trustedKey,
        )
      ) {
        this.broken ??= {
          kind: 'edited',
          seq: checkpoint.seq,
          message: `The checkpoint at place ${checkpoint.seq} is not signed by the trusted key: it was edited or added.`,
        };
      }
      this.checkpointAt.set(checkpoint.seq, checkpoint);
    }
    for (const removal of evidence.removals) {
      const signed =
        removal.publicKey === evidence.trustedKey &&
        verifySignature(
          removalText({ tenant: evidence.tenant, ...removal }),
          removal.signature,
          evidence.trustedKey,
        );
      if (signed) this.removalFrom.set(removal.fromSeq, removal);
    }
  }

  get done(): boolean {
    return this.broken !== undefined;
  }

  get progress(): number {
    return this.checked;
  }

  /** Checks a batch of links (in place order); `following` are the links after it, for telling what happened. */
  check(links: readonly ChainLink[], following: readonly ChainLink[] = []): void {
    for (let i = 0; i < links.length && !this.broken; i++) {
      const entry = links[i]!;
      if (this.headHash !== undefined && entry.seq > this.evidence.headSeq!) {
        this.fail(
          'inserted',
          entry,
          `Entry ${entry.id} (place ${entry.seq}) is beyond the signed head: it was inserted.`,
        );
        return;
      }
      if (entry.seq <= this.seq) {
        this.fail('inserted', entry, `A second entry claims place ${entry.seq}: it was inserted.`);
        return;
      }
      if (!this.bridgeTo(entry.seq - 1)) {
        const missing = entry.seq - 1 - this.seq;
        this.fail(
          'removed',
          entry,
          `${missing} ${missing === 1 ? 'entry' : 'entries'} before place ${entry.seq} (places ${this.seq + 1}–${entry.seq - 1}) ${missing === 1 ? 'was' : 'were'} deleted: no signed removal record covers ${missing === 1 ? 'it' : 'them'}.`,
        );
        return;
      }
      if (linkOf(this.link, entry.seq, entry.id, entry.canonical) !== entry.hash) {
        const after = links.slice(i + 1, i + 1 + LOOKAHEAD);
        if (after.length < LOOKAHEAD) after.push(...following.slice(0, LOOKAHEAD - after.length));
        this.classify(entry, after);
        return;
      }
      this.advance(entry.seq, entry.hash);
      this.checked++;
    }
  }

  /** The verdict once every link was given. */
  finish(): ChainVerdict {
    if (!this.broken) {
      const lastCheckpoint = Math.max(0, ...this.checkpointAt.keys());
      const end = Math.max(this.evidence.headSeq ?? 0, lastCheckpoint);
      if (end > this.seq && !this.bridgeTo(end)) {
        const missing = end - this.seq;
        this.broken = {
          kind: 'removed',
          seq: this.seq + 1,
          message: `The last ${missing} ${missing === 1 ? 'entry' : 'entries'} (places ${this.seq + 1}–${end}) ${missing === 1 ? 'was' : 'were'} deleted: ${this.reachOf(end, lastCheckpoint)}.`,
        };
      }
    }
    const latest = [...this.checkpointAt.values()].sort((a, b) => b.seq - a.seq)[0];
    const verdict: ChainVerdict = {
      tenant: this.evidence.tenant,
      intact: this.broken === undefined,
      entries: this.checked,
      removedByPolicy: this.removedByPolicy,
      checkpoints: this.checkpointAt.size,
    };
    if (latest)
      verdict.lastCheckpoint = { seq: latest.seq, signedAt: new Date(latest.signedAt).toISOString() };
    if (this.broken) verdict.broken = this.broken;
    return verdict;
  }

  /** What says the chain reaches `end`, in words. */
  private reachOf(end: number, lastCheckpoint: number): string {
    if (end === lastCheckpoint) return `the chain was signed up to place ${end}`;
    if (this.headHash !== undefined) return `the export's signed head is at place ${end}`;
    return `the chain is recorded up to place ${end}`;
  }

  /** Crosses signed removal records from the current place up to `target`; false if a gap is left. */
  private bridgeTo(target: number): boolean {
    while (this.seq < target) {
      const removal = this.removalFrom.get(this.seq + 1);
      if (!removal || removal.prevHash !== this.link || removal.toSeq > target) return false;
      this.removedByPolicy += removal.count;
      this.advance(removal.toSeq, removal.lastHash);
      if (this.broken) return true;
    }
    return true;
  }

  private advance(seq: number, hash: string): void {
    this.seq = seq;
    this.link = hash;
    if (this.headHash !== undefined && seq === this.evidence.headSeq && hash !== this.headHash) {
      this.broken ??= {
        kind: 'edited',
        seq,
        message: `The link at place ${seq} is not the signed head's: entries up to it were changed and the chain recomputed.`,
      };
    }
    const checkpoint = this.checkpointAt.get(seq);
    if (checkpoint && checkpoint.hash !== hash) {
      this.broken ??= {
        kind: 'edited',
        seq,
        message: `The chain up to place ${seq} does not match the checkpoint signed at ${new Date(checkpoint.signedAt).toISOString()}: entries up to it were changed and the chain recomputed.`,
      };
    }
  }

  private classify(entry: ChainLink, after: readonly ChainLink[]): void {
    const where = `${entry.id} (place ${entry.seq})`;
    if (this.evidence.headSeq !== undefined && entry.seq > this.evidence.headSeq) {
      this.fail('inserted', entry, `Entry ${where} is beyond the chain's last link: it was inserted.`);
      return;
    }
    for (let j = 0; j < after.length; j++) {
      const other = after[j]!;
      if (this.belongsAt(entry, other, j === 0 ? entry.hash : after[j - 1]!.hash)) {
        this.fail(
          'reordered',
          entry,
          `Entry ${where} was recorded at place ${other.seq}: entries were reordered.`,
        );
        return;
      }
    }
    const next = after[0];
    if (next && linkOf(this.link, entry.seq, next.id, next.canonical) === next.hash) {
      this.fail(
        'inserted',
        entry,
        `Entry ${where} was inserted: the entry after it was recorded at its place.`,
      );
      return;
    }
    const shift = this.renumberedBy(entry, next);
    if (shift !== undefined) {
      this.fail(
        'removed',
        entry,
        `${shift} ${shift === 1 ? 'entry' : 'entries'} before entry ${entry.id} (places ${entry.seq}–${entry.seq + shift - 1}) ${shift === 1 ? 'was' : 'were'} deleted and the entries after renumbered: entry ${entry.id}, now at place ${entry.seq}, was recorded at place ${entry.seq + shift}.`,
      );
      return;
    }
    this.fail('edited', entry, `Entry ${where} was changed after it was recorded: its link does not match.`);
  }

  /**
   * By how many places the entry and those after it were moved down, when entries before it were deleted and the
   * rest renumbered: its link is then still the one of a later place, which the next entry's link (made after it,
   * at its own old place) or a checkpoint or head at that later place confirms.
   */
  private renumberedBy(entry: ChainLink, next: ChainLink | undefined): number | undefined {
    const anchors = [...this.checkpointAt.values()].map(({ seq, hash }) => ({ seq, hash }));
    const headHash = this.headHash ?? this.evidence.recordedHeadHash;
    if (headHash !== undefined && this.evidence.headSeq !== undefined)
      anchors.push({ seq: this.evidence.headSeq, hash: headHash });
    const anchor = anchors.find((a) => a.hash === entry.hash && a.seq > entry.seq);
    if (anchor) return anchor.seq - entry.seq;
    if (!next || next.seq !== entry.seq + 1) return undefined;
    const end = Math.max(this.evidence.headSeq ?? 0, ...this.checkpointAt.keys());
    const limit = Math.min(Math.max(LOOKAHEAD, end - next.seq), MAX_RENUMBERING);
    for (let shift = 1; shift <= limit; shift++) {
      if (linkOf(entry.hash, next.seq + shift, next.id, next.canonical) === next.hash) return shift;
    }
    return undefined;
  }

  /**
   * Whether the entry (its content, with its id or the other's) was recorded at `other`'s place: after the link
   * before that place, or after the link now in the entry's or the other's row (the link columns may have moved
   * with the rows or stayed).
   */
  private belongsAt(entry: ChainLink, other: ChainLink, before: string): boolean {
    const targets = [other.hash, entry.hash];
    for (const previous of new Set([before, entry.hash, other.hash, this.link])) {
      for (const id of new Set([entry.id, other.id])) {
        if (targets.includes(linkOf(previous, other.seq, id, entry.canonical))) return true;
      }
    }
    return false;
  }

  private fail(kind: BreakKind, entry: ChainLink, message: string): void {
    this.broken ??= {
      kind,
      seq: entry.seq,
      entryId: entry.id,
      message,
    };
  }
}
