import { readFile, stat } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { ApiImportService } from '../control/apis/api-import-service.js';
import { API_DOCUMENT_LIMIT } from '../core/contracts/api-schemas.js';
import { HttpProblem } from '../core/http/problem.js';
import { managementDeps } from '../control/common/management-deps.js';
import { dataDirOption, withOfflineTenant } from './offline-tenant.js';
import { CommandError, UsageError } from './usage-error.js';

export const API_HELP = `gatehouse api import FILE [--agent-group ID] [--name NAME] [--data-dir DIR]

Imports an API definition (OpenAPI 3.1, OpenAPI 3.0 or Swagger 2.0; JSON or YAML) offline; the server for
that data dir must be stopped. The API is assigned to the agent group (default: default) and audited as
Apis.Import by cli:<your user name>.`;

const MEDIA_TYPE_BY_EXTENSION: Record<string, string> = {
  '.json': 'application/json',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
};

async function readDocument(file: string): Promise<Buffer> {
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new CommandError(`No such file: ${file}`);
    throw error;
  }
  if (size > API_DOCUMENT_LIMIT) {
    throw new CommandError(`${file} is ${size} bytes, larger than the limit of ${API_DOCUMENT_LIMIT} bytes.`);
  }
  return readFile(file);
}

/** An HttpProblem of the import service as a message for the terminal. */
function describeProblem(problem: HttpProblem): string {
  const lines = [problem.detail ?? problem.title];
  for (const [field, messages] of Object.entries(problem.errors ?? {})) {
    for (const message of messages) lines.push(`  ${field === '' ? '(document)' : field}: ${message}`);
  }
  return lines.join('\n');
}

async function importCommand(
  file: string,
  options: { agentGroupId?: string; name?: string; dataDir: string },
  out: NodeJS.WritableStream,
): Promise<void> {
  const content = await readDocument(file);
  const mediaType = MEDIA_TYPE_BY_EXTENSION[extname(file).toLowerCase()];
  await withOfflineTenant(options.dataDir, 'api import', async (tenant) => {
    let outcome;
    try {
      outcome = await new ApiImportService(managementDeps(tenant)).importDocument(
        { content, ...(mediaType ? { mediaType } : {}) },
        { agentGroupId: options.agentGroupId, name: options.name },
      );
    } catch (error) {
      if (error instanceof HttpProblem)
        throw new CommandError(`Could not import ${file}: ${describeProblem(error)}`);
      throw error;
    }
    const { api, warnings } = outcome;
    const group = tenant.configStore.data.agentGroups.find(
      (candidate) => candidate.id === api.agentGroupIds[0],
    );
    await tenant.recorder.recordOfflineAction(
      'Apis.Import',
      `cli:${userInfo().username}`,
      {
        file,
        agentGroupId: api.agentGroupIds[0],
        id: api.id,
        name: api.name,
        basePath: api.basePath,
        operationCount: api.operations.length,
        documentBytes: content.length,
      },
      [{ type: 'Api', id: api.id, name: api.name }],
    );
    out.write(
      `Imported ${api.name} ${api.version} (id ${api.id}): base path ${api.basePath}, ${api.operations.length} operations, agent group ${group?.name ?? api.agentGroupIds[0]}.\n`,
    );
    for (const warning of warnings)
      out.write(`  warning ${warning.pointer || '(document)'}: ${warning.message}\n`);
  });
}

export async function apiCommand(argv: string[], out: NodeJS.WritableStream): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string' },
      'agent-group': { type: 'string' },
      name: { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  const [action, file] = positionals;
  if (action !== 'import' || !file || positionals.length !== 2) throw new UsageError(API_HELP);
  const name = values.name?.trim();
  if (values.name !== undefined && !name) throw new UsageError('--name must not be empty.');
  await importCommand(
    resolve(file),
    { agentGroupId: values['agent-group'], name, dataDir: dataDirOption(values['data-dir']) },
    out,
  );
}
