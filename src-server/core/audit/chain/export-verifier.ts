import { ErrorCode } from '../../contracts/error-codes.js';
import { GatehouseError } from '../../errors/gatehouse-error.js';
import { OWN_TENANT } from '../audit-tenant.js';
import {
  ChainWalker,
  type ChainLink,
  type ChainVerdict,
  type SignedCheckpoint,
  type SignedRemoval,
} from './chain-walker.js';

/** An export the verifier cannot judge: not a verifiable export at all. */
export class UnverifiableExportError extends GatehouseError {
  override name = 'UnverifiableExportError';
  constructor(message: string) {
    super(ErrorCode.GH_ERR_VALIDATION, message);
  }
}

/** What a verifiable export holds, read line by line. */
export interface ParsedExport {
  tenant?: string;
  publicKey?: string;
  headSeq?: number;
  /** The export's signed head: its last place and link. */
  head?: SignedCheckpoint;
  links: ChainLink[];
  /** The tenants the entry lines name (Gatehouse's own when a line names none). */
  entryTenants: Set<string>;
  checkpoints: SignedCheckpoint[];
  removals: SignedRemoval[];
  /** The first line that is neither an entry with its link nor evidence (an edit that broke the file). */
  damaged?: { line: number; message: string };
  /** The number of the file's last line with content. */
  lastLine: number;
}

const HASH = /^[0-9a-f]{64}$/;
const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const isPlace = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;
const isText = (value: unknown): value is string => typeof value === 'string';

function timeOf(value: unknown): number | undefined {
  if (!isText(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : undefined;
}

/** Reads an export's lines (without line ends) into entries with their links and the chain's evidence. */
export class ExportParser {
  readonly parsed: ParsedExport = {
    links: [],
    entryTenants: new Set(),
    checkpoints: [],
    removals: [],
    lastLine: 0,
  };
  private lineNumber = 0;

  add(line: string): void {
    this.lineNumber++;
    const text = (this.lineNumber === 1 ? line.replace(/^\uFEFF/, '') : line).trim();
    if (text === '') return;
    this.parsed.lastLine = this.lineNumber;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.damage(`not valid JSON (${(error as Error).message})`);
      return;
    }
    if (!isObject(value)) {
      this.damage('not a JSON object');
      return;
    }
    if ('auditChain' in value && Object.keys(value).length === 1) this.trailer(value.auditChain);
    else if ('auditChainCheckpoint' in value && Object.keys(value).length === 1)
      this.checkpoint(value.auditChainCheckpoint);
    else if ('auditChainRemoval' in value && Object.keys(value).length === 1)
      this.removal(value.auditChainRemoval);
    else this.entry(value);
  }

  private entry(value: Record<string, unknown>): void {
    const { id, tenant, chain, ...entry } = value;
    if (!Number.isSafeInteger(id)) {
      this.damage('an entry without an integer id');
      return;
    }
    if (tenant !== undefined && !isText(tenant)) {
      this.damage('tenant is not a string');
      return;
    }
    if (!isObject(chain) || !isPlace(chain.seq) || !isText(chain.hash) || !HASH.test(chain.hash)) {
      this.damage(`entry ${String(id)} has no link (chain.seq, chain.hash)`);
      return;
    }
    this.parsed.links.push({
      id: id as number,
      seq: chain.seq,
      hash: chain.hash,
      canonical: JSON.stringify(entry),
    });
    this.parsed.entryTenants.add(tenant ?? OWN_TENANT);
  }

  private trailer(value: unknown): void {
    if (!isObject(value) || !isText(value.tenant) || !isText(value.publicKey)) {
      this.damage('the auditChain line is incomplete');
      return;
    }
    // Kept before the checks below, so a damaged trailer is reported as an edit, not as a file without a chain.
    this.parsed.tenant = value.tenant;
    this.parsed.publicKey = value.publicKey;
    if (value.version === 1) {
      // Taking an unsigned head at its word would let a cut tail pass under a rewritten version 1 trailer.
      this.damage(
        'the auditChain line is version 1 (an export of the first chained release), whose head is unsigned, so the file cannot prove its newest entries are all there: export the tenant again',
      );
      return;
    }
    const signedAt = timeOf(value.signedAt);
    if (
      value.version !== 2 ||
      !Number.isSafeInteger(value.headSeq) ||
      (value.headSeq as number) < 0 ||
      !isText(value.headHash) ||
      !HASH.test(value.headHash) ||
      signedAt === undefined ||
      !isText(value.signature)
    ) {
      this.damage(
        'the auditChain line has no signed head (version 2: headSeq, headHash, signedAt, signature)',
      );
      return;
    }
    this.parsed.headSeq = value.headSeq as number;
    this.parsed.head = {
      seq: value.headSeq as number,
      hash: value.headHash,
      signedAt,
      publicKey: value.publicKey,
      signature: value.signature,
    };
  }

  private checkpoint(value: unknown): void {
    const signedAt = isObject(value) ? timeOf(value.signedAt) : undefined;
    if (
      !isObject(value) ||
      !isPlace(value.seq) ||
      !isText(value.hash) ||
      signedAt === undefined ||
      !isText(value.publicKey) ||
      !isText(value.signature)
    ) {
      this.damage('a checkpoint line is incomplete');
      return;
    }
    this.parsed.checkpoints.push({
      seq: value.seq,
      hash: value.hash,
      signedAt,
      publicKey: value.publicKey,
      signature: value.signature,
    });
  }

  private removal(value: unknown): void {
    const removedAt = isObject(value) ? timeOf(value.removedAt) : undefined;
    if (
      !isObject(value) ||
      !isPlace(value.fromSeq) ||
      !isPlace(value.toSeq) ||
      !isPlace(value.count) ||
      !isText(value.prevHash) ||
      !isText(value.lastHash) ||
      !isText(value.policy) ||
      removedAt === undefined ||
      !isText(value.publicKey) ||
      !isText(value.signature)
    ) {
      this.damage('a removal line is incomplete');
      return;
    }
    this.parsed.removals.push({
      fromSeq: value.fromSeq,
      toSeq: value.toSeq,
      count: value.count,
      prevHash: value.prevHash,
      lastHash: value.lastHash,
      policy: value.policy,
      removedAt,
      publicKey: value.publicKey,
      signature: value.signature,
    });
  }

  private damage(message: string): void {
    this.parsed.damaged ??= { line: this.lineNumber, message };
  }
}

/**
 * Verifies a parsed export: its entries' links in place order, its removal records and checkpoints, signed with
 * `trustedKey` (the export's own key unless the caller pins one). Throws when the file carries no chain.
 */
export function verifyParsedExport(parsed: ParsedExport, trustedKey?: string): ChainVerdict {
  if (parsed.tenant === undefined || parsed.publicKey === undefined) {
    if (parsed.links.length > 0 && parsed.entryTenants.size === 1) return verifyCutExport(parsed, trustedKey);
    throw new UnverifiableExportError(
      'This file does not carry its audit chain: export one tenant without filters as NDJSON (gatehouse audit export --tenant NAME) to verify it.',
    );
  }
  const walker = new ChainWalker({
    tenant: parsed.tenant,
    trustedKey: trustedKey ?? parsed.publicKey,
    headSeq: parsed.headSeq,
    ...(parsed.head ? { signedHead: parsed.head } : {}),
    checkpoints: parsed.checkpoints,
    removals: parsed.removals,
  });
  const strangers = [...parsed.entryTenants].filter((tenant) => tenant !== parsed.tenant);
  if (strangers.length > 0 && !parsed.damaged) {
    parsed.damaged = {
      line: 0,
      message: `entries name the tenant ${strangers.join(', ')}, not ${parsed.tenant}`,
    };
  }
  if (parsed.damaged) {
    const verdict = walker.finish();
    return {
      ...verdict,
      intact: false,
      broken: {
        kind: 'edited',
        seq: 0,
        message:
          parsed.damaged.line > 0
            ? `Line ${parsed.damaged.line} was edited: ${parsed.damaged.message}.`
            : `The file was edited: ${parsed.damaged.message}.`,
      },
    };
  }
  const links = [...parsed.links].sort((a, b) => a.seq - b.seq);
  walker.check(links);
  return walker.finish();
}

/**
 * An export whose entries carry links but whose end is missing (no `auditChain` line: the file was cut short, a
 * last line cut in the middle included): its links are checked, and the missing end is reported as removed.
 */
function verifyCutExport(parsed: ParsedExport, trustedKey: string | undefined): ChainVerdict {
  const tenant = [...parsed.entryTenants][0]!;
  const walker = new ChainWalker({
    tenant,
    trustedKey: trustedKey ?? parsed.checkpoints[0]?.publicKey ?? '',
    checkpoints: parsed.checkpoints,
    removals: parsed.removals,
  });
  const verdict = (broken: ChainVerdict['broken']): ChainVerdict => ({
    ...walker.finish(),
    intact: false,
    broken,
  });
  if (parsed.damaged && parsed.damaged.line !== parsed.lastLine) {
    return verdict({
      kind: 'edited',
      seq: 0,
      message: `Line ${parsed.damaged.line} was edited: ${parsed.damaged.message}.`,
    });
  }
  const links = [...parsed.links].sort((a, b) => a.seq - b.seq);
  walker.check(links);
  const found = walker.finish();
  if (!found.intact) return found;
  const last = links.at(-1)!.seq;
  return verdict({
    kind: 'removed',
    seq: last + 1,
    message: `The export ends at line ${parsed.lastLine} without its signed head (the auditChain line): everything after place ${last} was cut off.`,
  });
}
