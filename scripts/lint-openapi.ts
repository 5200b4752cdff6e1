// The OpenAPI document's lint (`npm run lint:openapi`, part of `npm run lint`): starts a server on a temporary data
// dir with the audit log route on (so every route is in the document), writes the document it serves to a temp
// file and runs Redocly (recommended, warnings as errors) and Spectral (spectral:oas, failing on warnings) on it.
// The rule settings and the reason for each one changed are in redocly.yaml and .spectral.yaml.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startGatehouse } from '../src-server/app/gatehouse.js';
import { createLogger } from '../src-server/core/logging/logger.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

async function servedDocument(dataDir: string): Promise<string> {
  const gatehouse = await startGatehouse({
    dataDir,
    port: 0,
    gatewayPort: 0,
    env: {},
    logger: createLogger('silent'),
    uiDir: undefined,
    settings: { 'Flags:EnableServiceApiAuditLogRoute': true },
  });
  try {
    const response = await fetch(`${gatehouse.controlPanelUrl()}/swagger/v1/swagger.json`);
    if (response.status !== 200) throw new Error(`The document answered ${response.status}.`);
    return JSON.stringify(await response.json(), null, 2);
  } finally {
    await gatehouse.close();
  }
}

function run(label: string, command: string, args: string[]): boolean {
  process.stdout.write(`\n— ${label}\n`);
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    // Offline and quiet: no usage telemetry, no update check.
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  if (result.error) throw result.error;
  return result.status === 0;
}

const dir = await mkdtemp(join(tmpdir(), 'gatehouse-openapi-'));
try {
  const file = join(dir, 'gatehouse-management-api.json');
  await writeFile(file, await servedDocument(join(dir, 'data')));
  const redocly = run('Redocly (recommended-strict)', bin('redocly'), ['lint', '--format', 'stylish', file]);
  const spectral = run('Spectral (spectral:oas)', bin('spectral'), [
    'lint',
    '--fail-severity',
    'hint',
    '--ruleset',
    join(root, '.spectral.yaml'),
    file,
  ]);
  if (!redocly || !spectral) {
    process.stderr.write('\nThe OpenAPI document has lint findings (see above).\n');
    process.exitCode = 1;
  } else {
    process.stdout.write('\n✔ OpenAPI document: Redocly and Spectral report nothing.\n');
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
