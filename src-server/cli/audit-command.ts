import { createWriteStream, existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import type { ImportBatch } from '../core/audit/import-batch.js';
import { formatAuditExport } from '../control/audit/audit-export-format.js';
import { chainedExport, isWholeTenant } from '../core/audit/chain/chain-export.js';
import { auditFilterFromOptions } from '../control/audit/audit-query-spec.js';
import type { ImportProblem } from '../control/audit/import/read-import-file.js';
import { readImportInWorker } from '../control/audit/import/read-import-in-worker.js';
import { HttpProblem } from '../core/http/problem.js';
import { OWN_TENANT, TENANT_NAME_RULE, tenantName } from '../core/audit/audit-tenant.js';
import { dataDirOption, withOfflineTenant } from './offline-tenant.js';
import { syncSources } from './audit-sync-command.js';
import { verifyDataDir, verifyExportFile } from './audit-verify-command.js';
import { CommandError, UsageError } from './usage-error.js';

export const AUDIT_HELP = `gatehouse audit import FILE [--tenant NAME] [--data-dir DIR]
gatehouse audit export [--tenant NAME|*] [--format ndjson|csv] [--output FILE] [--startDateTimeUtc T]
                       [--endDateTimeUtc T] [--actionName A] [--userName U] [--resource TYPE:ID]
                       [--search WORDS] [--data-dir DIR]
gatehouse audit sync [--source NAME] [--data-dir DIR]
gatehouse audit remove-history --resource-type TYPE --resource-id ID [--data-dir DIR]
gatehouse audit verify [--tenant NAME] [--progress] [--data-dir DIR]
gatehouse audit verify --file EXPORT [--public-key KEY]

Offline audit tools; the server for that data dir must be stopped.
import   NDJSON entries, or JSON pages as GET /api/v1/audit-log returns them (one page or an array of pages),
         or pages shaped {data:[{action, user, timestampUtc, description, parameters}]}. Idempotent.
         Lines that are not entries are skipped and listed; exit code 1 when nothing in the file was an entry.
         Into the named tenant's trail (default: gatehouse, Gatehouse's own).
export   Same filters and order as the endpoint; writes to stdout unless --output is given.
         --resource TYPE:ID exports everything that touched one resource (e.g. Api:5d0c…);
         --search WORDS the entries whose parameters' values hold every word.
         --tenant NAME exports that tenant's trail, --tenant '*' every tenant's (default: gatehouse).
sync     Pulls the new entries of every source (or the named one) from its GET /api/v1/audit-log into its
         tenant's trail (see "gatehouse source"): incremental, resumable after an interruption (Ctrl+C), with
         progress and a summary. Exits 1 when a sync stopped early; running it again resumes.
remove-history  Removes one resource's configuration history (audited).
verify   Checks the tamper evidence (docs/AUDIT-CHAIN.md): every tenant's hash chain (or the named tenant's),
         its signed checkpoints and removal records. Prints "intact" or the first broken link and what
         happened there (edited, removed, inserted, reordered). --file checks an export of one tenant
         (NDJSON, no filters) with no data dir, against the public key it carries or --public-key.
         Progress (entries checked of the total) shows on a terminal; --progress also prints it as a line
         on stderr every 10 % when stderr is not a terminal.
         Exit codes: 0 intact, 3 tampering found, 1 could not verify (unreadable file, no chain in it,
         data dir in use), 2 usage.`;

const MAX_LISTED_PROBLEMS = 20;

async function importFile(
  dataDir: string,
  tenant: string,
  file: string,
  out: NodeJS.WritableStream,
  err: NodeJS.WriteStream,
) {
  if (!existsSync(file)) throw new CommandError(`No such file: ${file}`);
  const problems: ImportProblem[] = [];
  let problemCount = 0;
  const showProgress = err.isTTY;
  async function* batches(): AsyncGenerator<ImportBatch> {
    for await (const { batch, problems: found } of readImportInWorker(file)) {
      problemCount += found.length;
      problems.push(...found.slice(0, MAX_LISTED_PROBLEMS - problems.length));
      yield batch;
    }
  }
  const started = Date.now();
  const result = await withOfflineTenant(dataDir, 'audit import', (opened) =>
    opened.auditStore.importPrepared(
      batches(),
      (progress) => {
        if (showProgress)
          err.write(
            progress.indexing
              ? `\r\x1b[KRead ${progress.read.toLocaleString('en')} entries, ${progress.added.toLocaleString('en')} added; building indexes…`
              : `\rRead ${progress.read.toLocaleString('en')} entries, ${progress.added.toLocaleString('en')} added…`,
          );
      },
      { tenant, offline: true },
    ),
  );
  if (showProgress) err.write('\r\x1b[K');
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  out.write(
    `Imported ${file} into tenant ${tenant}: ${result.read} entries read, ${result.added} added, ${result.duplicates} already present, ` +
      `${problemCount} skipped (${seconds} s).\n`,
  );
  for (const problem of problems) out.write(`  skipped ${problem.where}: ${problem.message}\n`);
  if (problemCount > problems.length) out.write(`  … and ${problemCount - problems.length} more.\n`);
  // A file of which nothing is an entry is the wrong file (a log, an HTML page): a script must see that fail.
  if (result.read === 0 && problemCount > 0)
    throw new CommandError(`Nothing imported: ${file} holds no audit entry (see the skipped lines above).`);
}

/** `--tenant` of an import: a tenant's name (not `*`). */
function importTenant(value: string | undefined): string {
  if (value === undefined) return OWN_TENANT;
  const name = tenantName(value);
  if (!name) throw new UsageError(`--tenant: ${TENANT_NAME_RULE}.`);
  return name;
}

export async function auditCommand(argv: string[], out: NodeJS.WritableStream): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string' },
      tenant: { type: 'string' },
      format: { type: 'string' },
      output: { type: 'string' },
      startDateTimeUtc: { type: 'string' },
      endDateTimeUtc: { type: 'string' },
      actionName: { type: 'string' },
      userName: { type: 'string' },
      resource: { type: 'string' },
      search: { type: 'string' },
      'resource-type': { type: 'string' },
      'resource-id': { type: 'string' },
      source: { type: 'string' },
      file: { type: 'string' },
      'public-key': { type: 'string' },
      progress: { type: 'boolean' },
    },
    allowPositionals: true,
    strict: true,
  });
  const [action, file] = positionals;
  const dataDir = dataDirOption(values['data-dir']);
  switch (action) {
    case 'import':
      if (!file || positionals.length !== 2) throw new UsageError(AUDIT_HELP);
      await importFile(dataDir, importTenant(values.tenant), resolve(file), out, process.stderr);
      return;
    case 'export': {
      const format = values.format ?? 'ndjson';
      if (format !== 'ndjson' && format !== 'csv') throw new UsageError('--format must be ndjson or csv.');
      let filter;
      try {
        filter = auditFilterFromOptions({
          tenant: values.tenant,
          startDateTimeUtc: values.startDateTimeUtc,
          endDateTimeUtc: values.endDateTimeUtc,
          actionName: values.actionName,
          userName: values.userName,
          resource: values.resource,
          search: values.search,
        });
      } catch (error) {
        if (error instanceof HttpProblem && error.errors) {
          throw new UsageError(
            Object.entries(error.errors)
              .map(([name, messages]) => `--${name}: ${messages.join(' ')}`)
              .join('\n'),
          );
        }
        throw error;
      }
      const target = values.output ? createWriteStream(resolve(values.output)) : out;
      await withOfflineTenant(dataDir, 'audit export', async (tenant) => {
        const lines =
          format === 'ndjson' && isWholeTenant(filter)
            ? chainedExport(tenant.database, filter.tenant ?? OWN_TENANT, tenant.chainSigner)
            : formatAuditExport(tenant.auditStore.iterate(filter), format);
        await pipeline(Readable.from(lines), target, { end: target !== out });
      });
      return;
    }
    case 'sync':
      if (positionals.length !== 1) throw new UsageError(AUDIT_HELP);
      await syncSources(dataDir, values.source, out, process.stderr);
      return;
    case 'remove-history': {
      const type = values['resource-type'];
      const id = values['resource-id'];
      if (!type || !id) throw new UsageError(AUDIT_HELP);
      await withOfflineTenant(dataDir, 'audit remove-history', async (tenant) => {
        const { removed } = await tenant.auditStore.removeResourceHistory({ type, id });
        await tenant.recorder.recordOfflineAction('AuditLog.RemoveHistory', `cli:${userInfo().username}`, {
          resourceType: type,
          resourceId: id,
          removed,
        });
        out.write(`Removed ${removed} configuration entries of ${type} ${id}.\n`);
      });
      return;
    }
    case 'verify':
      if (positionals.length !== 1) throw new UsageError(AUDIT_HELP);
      if (values.file !== undefined) {
        if (values.tenant !== undefined || values['data-dir'] !== undefined)
          throw new UsageError('--file verifies an export on its own: no --tenant or --data-dir with it.');
        await verifyExportFile(resolve(values.file), values['public-key'], out, process.stderr);
      } else {
        const tenant =
          values.tenant === undefined || values.tenant === '*' ? undefined : importTenant(values.tenant);
        await verifyDataDir(dataDir, tenant, out, process.stderr, values.progress === true);
      }
      return;
    default:
      throw new UsageError(AUDIT_HELP);
  }
}
