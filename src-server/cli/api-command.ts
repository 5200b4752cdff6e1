import { resolve } from 'node:path';
import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { ApiImportService, type ImportOutcome } from '../control/apis/api-import-service.js';
import { InlineImportRunner } from '../control/apis/import-pipeline/import-runner.js';
import type { ImportInput, PreparedDocument } from '../control/apis/import-pipeline/import-types.js';
import { HttpProblem } from '../core/http/problem.js';
import { managementDeps } from '../control/common/management-deps.js';
import type { Tenant } from '../app/tenant.js';
import { describeProblem, printChanges, printImportReport } from './api-command-output.js';
import { dataDirOption, withOfflineTenant } from './offline-tenant.js';
import { CommandError, UsageError } from './usage-error.js';

export const API_HELP = `gatehouse api import FILE|URL [--agent-group ID] [--name NAME] [--allow-private-address] [--yes] [--data-dir DIR]

Imports an API definition (OpenAPI 3.2, 3.1, 3.0 or Swagger 2.0; JSON or YAML) offline; the server for that
data dir must be stopped. A FILE's or URL's $refs to other files are read relative to it. Problems that leave
something usable are printed as warnings; operations the gateway can't expose are listed as skipped.

A URL that an API was imported from before re-imports that API: a new revision, its passthrough entries kept
where their operations still are. If entries would be dropped, the changes are printed and nothing happens
unless --yes is given. A URL whose host resolves to a loopback or private address needs
--allow-private-address. A new API is assigned to the agent group (default: default). Audited as Apis.Import
by cli:<your user name>.`;

function inputOf(target: string, allowPrivateAddress: boolean): ImportInput {
  if (/^https?:\/\//i.test(target)) return { kind: 'url', url: target, allowPrivateAddress };
  return { kind: 'file', path: resolve(target) };
}

async function run<T>(what: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof HttpProblem)
      throw new CommandError(`Could not import ${what}: ${describeProblem(error)}`, error);
    throw error;
  }
}

interface ImportOptions {
  agentGroupId?: string;
  name?: string;
  dataDir: string;
  allowPrivateAddress: boolean;
  yes: boolean;
}

async function importCommand(
  target: string,
  options: ImportOptions,
  out: NodeJS.WritableStream,
): Promise<void> {
  const input = inputOf(target, options.allowPrivateAddress);
  const runner = new InlineImportRunner();
  await withOfflineTenant(options.dataDir, 'api import', async (tenant) => {
    const importer = new ApiImportService(managementDeps(tenant), runner);
    const prepared = await run(target, () => importer.prepare(input));
    const existing = prepared.source.url ? importer.findBySourceUrl(prepared.source.url) : undefined;
    if (existing) {
      const changes = importer.previewReimport(existing.id, prepared);
      if (changes.droppedPassthroughEntries.length > 0 && !options.yes) {
        printChanges(out, changes);
        throw new CommandError(
          `Re-importing ${existing.name} from ${target} would drop ${changes.droppedPassthroughEntries.length} passthrough entries (listed above); run again with --yes to apply.`,
        );
      }
      const outcome = await run(target, () =>
        importer.reimport(existing.id, prepared, {
          ...(options.name ? { name: options.name } : {}),
          expectedRevision: changes.fromRevision,
        }),
      );
      await audit(tenant, target, prepared, outcome, { revision: outcome.api.revision });
      out.write(
        `Re-imported ${outcome.api.name} ${outcome.api.version} (id ${outcome.api.id}) from ${target}: revision ${outcome.api.revision}, ${outcome.kept.length} operations kept, ${outcome.added.length} added, ${outcome.removed.length} removed.\n`,
      );
      printChanges(out, outcome);
      printImportReport(out, outcome);
      return;
    }
    const outcome = await run(target, () =>
      importer.create(prepared, {
        ...(options.agentGroupId ? { agentGroupId: options.agentGroupId } : {}),
        ...(options.name ? { name: options.name } : {}),
      }),
    );
    const { api } = outcome;
    await audit(tenant, target, prepared, outcome, {
      agentGroupId: api.agentGroupIds[0],
      id: api.id,
      name: api.name,
    });
    const group = tenant.configStore.data.agentGroups.find(
      (candidate) => candidate.id === api.agentGroupIds[0],
    );
    out.write(
      `Imported ${api.name} ${api.version} (id ${api.id}): base path ${api.basePath}, ${api.operations.length} operations, agent group ${group?.name ?? api.agentGroupIds[0]}.\n`,
    );
    printImportReport(out, outcome);
  });
}

async function audit(
  tenant: Tenant,
  target: string,
  prepared: PreparedDocument,
  outcome: ImportOutcome,
  extra: Record<string, unknown>,
): Promise<void> {
  const { api } = outcome;
  await tenant.recorder.recordOfflineAction(
    'Apis.Import',
    `cli:${userInfo().username}`,
    {
      ...(prepared.source.kind === 'url' ? { url: prepared.source.url } : { file: resolve(target) }),
      ...extra,
      basePath: api.basePath,
      operationCount: api.operations.length,
      documentBytes: prepared.content.byteLength,
    },
    [{ type: 'Api', id: api.id, name: api.name }],
  );
}

export async function apiCommand(argv: string[], out: NodeJS.WritableStream): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string' },
      'agent-group': { type: 'string' },
      name: { type: 'string' },
      'allow-private-address': { type: 'boolean' },
      yes: { type: 'boolean' },
    },
    allowPositionals: true,
    strict: true,
  });
  const [action, target] = positionals;
  if (action !== 'import' || !target || positionals.length !== 2) throw new UsageError(API_HELP);
  const name = values.name?.trim();
  if (values.name !== undefined && !name) throw new UsageError('--name must not be empty.');
  await importCommand(
    target,
    {
      ...(values['agent-group'] ? { agentGroupId: values['agent-group'] } : {}),
      ...(name ? { name } : {}),
      dataDir: dataDirOption(values['data-dir']),
      allowPrivateAddress: values['allow-private-address'] === true,
      yes: values.yes === true,
    },
    out,
  );
}
