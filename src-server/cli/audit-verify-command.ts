import { createReadStream, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import {
  ExportParser,
  UnverifiableExportError,
  verifyParsedExport,
} from '../core/audit/chain/export-verifier.js';
import { verifyStoredChains, type VerifyProgress } from '../core/audit/chain/chain-verify-store.js';
import type { ChainVerdict } from '../core/audit/chain/chain-walker.js';
import { ErrorCode } from '../core/contracts/error-codes.js';
import { GatehouseError } from '../core/errors/gatehouse-error.js';
import { withOfflineTenant } from './offline-tenant.js';
import { CommandError } from './usage-error.js';

/** Exit code of `audit verify` when a chain is broken (1 stays "could not verify", 2 a usage mistake). */
export const EXIT_TAMPERED = 3;

class ChainBrokenError extends GatehouseError {
  override name = 'ChainBrokenError';
  constructor(message: string) {
    super(ErrorCode.GH_ERR_AUDIT_CHAIN_BROKEN, message);
  }
}

/** The report of one tenant's verdict, as the CLI prints it. */
export function describeVerdict(verdict: ChainVerdict): string {
  const checkpoint = verdict.lastCheckpoint
    ? `, last checkpoint at ${verdict.lastCheckpoint.seq} signed ${verdict.lastCheckpoint.signedAt}`
    : ', no checkpoint yet';
  const removed = verdict.removedByPolicy > 0 ? `, ${verdict.removedByPolicy} removed by policy` : '';
  if (verdict.intact) {
    return `${verdict.tenant}: intact (${verdict.entries} entries${removed}, ${verdict.checkpoints} checkpoints${checkpoint}).`;
  }
  const broken = verdict.broken!;
  return `${verdict.tenant}: BROKEN at place ${broken.seq}${broken.entryId === undefined ? '' : ` (entry ${broken.entryId})`}: ${broken.kind}. ${broken.message} (${verdict.entries} entries checked before it.)`;
}

/** Prints each verdict; throws (exit code 3) when one is broken. */
export function reportVerdicts(verdicts: readonly ChainVerdict[], out: NodeJS.WritableStream): void {
  for (const verdict of verdicts) out.write(`${describeVerdict(verdict)}\n`);
  const broken = verdicts.filter((verdict) => !verdict.intact);
  if (broken.length > 0) {
    const error = new CommandError(
      `Tampering found in ${broken.map((verdict) => verdict.tenant).join(', ')}.`,
      new ChainBrokenError('audit chain broken'),
    );
    error.exitCode = EXIT_TAMPERED;
    throw error;
  }
}

/**
 * Progress of a data dir's verification on stderr: one line rewritten in place on a terminal; otherwise, when
 * asked (`--progress`), a line each time another tenth of the entries is checked.
 */
export function progressPrinter(
  err: NodeJS.WriteStream,
  lines = false,
): ((progress: VerifyProgress) => void) | undefined {
  const text = ({ tenant, checked, total }: VerifyProgress) =>
    `Verifying ${tenant}: ${checked.toLocaleString('en')} of ${total.toLocaleString('en')} entries checked`;
  if (err.isTTY) return (progress) => err.write(`\r${text(progress)}…`);
  if (!lines) return undefined;
  let printedTenth = -1;
  return (progress) => {
    const tenth = progress.total === 0 ? 10 : Math.floor((10 * progress.checked) / progress.total);
    if (tenth <= printedTenth) return;
    printedTenth = tenth;
    err.write(`${text(progress)}\n`);
  };
}

/** `gatehouse audit verify [--tenant T] [--progress]`: the data dir's chains, offline. */
export async function verifyDataDir(
  dataDir: string,
  tenant: string | undefined,
  out: NodeJS.WritableStream,
  err: NodeJS.WriteStream,
  progressLines = false,
): Promise<void> {
  const onProgress = progressPrinter(err, progressLines);
  const verdicts = await withOfflineTenant(dataDir, 'audit verify', (opened) =>
    verifyStoredChains(opened.database, opened.chainSigner.publicKey, tenant, onProgress),
  );
  if (onProgress && err.isTTY) err.write('\r\x1b[K');
  reportVerdicts(verdicts, out);
}

/** `gatehouse audit verify --file EXPORT [--public-key KEY]`: an export, on any machine, without a data dir. */
export async function verifyExportFile(
  file: string,
  publicKey: string | undefined,
  out: NodeJS.WritableStream,
  err: NodeJS.WriteStream,
): Promise<void> {
  if (!existsSync(file)) throw new CommandError(`No such file: ${file}`);
  const parser = new ExportParser();
  let lines = 0;
  const reader = createInterface({
    input: createReadStream(file, { encoding: 'utf8' }),
    crlfDelay: Infinity,
  });
  for await (const line of reader) {
    parser.add(line);
    if (err.isTTY && ++lines % 100_000 === 0) err.write(`\rRead ${lines.toLocaleString('en')} lines…`);
  }
  if (err.isTTY && lines >= 100_000) err.write('\r\x1b[K');
  let verdict;
  try {
    verdict = verifyParsedExport(parser.parsed, publicKey);
  } catch (error) {
    if (error instanceof UnverifiableExportError) throw new CommandError(error.message, error);
    throw error;
  }
  out.write(
    parser.parsed.publicKey === undefined
      ? `Public key: ${publicKey ? `${publicKey} (pinned)` : 'none (the file lost its last line, which names it)'}\n`
      : `Public key: ${parser.parsed.publicKey}${publicKey ? ' (pinned)' : ' (the export’s own: compare it with the data dir’s)'}\n`,
  );
  reportVerdicts([verdict], out);
}
