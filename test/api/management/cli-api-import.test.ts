import { writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../src-server/core/audit/audit-entry.js';
import { runCli } from '../../helpers/cli-process.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { startTestServer } from '../../helpers/test-server.js';
import { DescriptionServer } from '../../helpers/description-server.js';
import { json, SAMPLES, type ApiDto } from './helpers.js';

// Runs CLI processes from source (through tsx): seconds each on a busy machine.
describe('gatehouse api import', { timeout: 120_000 }, () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;

  beforeAll(async () => {
    dir = await tempDir();
  });
  afterAll(() => dir.remove());

  // Each CLI run starts Node with tsx (a few seconds each), hence the long timeout.
  it('imports a document offline, audited as Apis.Import by the OS user, and refuses bad input', async () => {
    const dataDir = join(dir.path, 'data');
    const imported = await runCli([
      'api',
      'import',
      join(SAMPLES, 'orders-api.openapi.yaml'),
      '--name',
      'Orders (CLI)',
      '--agent-group',
      'default',
      '--data-dir',
      dataDir,
    ]);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(
      /^Imported Orders \(CLI\) 1\.4\.0 \(id [0-9a-f-]{36}\): base path \/orders-api\/v1, 7 operations, agent group Default\./,
    );

    const overlap = await runCli([
      'api',
      'import',
      join(SAMPLES, 'orders-api.openapi.yaml'),
      '--data-dir',
      dataDir,
    ]);
    expect(overlap.code).toBe(1);
    expect(overlap.stderr).toContain("overlaps the base path /orders-api/v1 of the API 'Orders (CLI)'");

    const broken = join(dir.path, 'broken.json');
    await writeFile(broken, '{"openapi": "3.0.0",\n "info": {,}}');
    const invalid = await runCli(['api', 'import', broken, '--data-dir', dataDir]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('(document): JSON syntax error at line 2, column 11');

    expect(
      (await runCli(['api', 'import', join(dir.path, 'missing.json'), '--data-dir', dataDir])).code,
    ).toBe(1);
    expect((await runCli(['api', 'import', '--data-dir', dataDir])).code).toBe(2);
    const unknownGroup = await runCli([
      'api',
      'import',
      join(SAMPLES, 'inventory-api.openapi.json'),
      '--agent-group',
      'nope',
      '--data-dir',
      dataDir,
    ]);
    expect(unknownGroup.code).toBe(1);
    expect(unknownGroup.stderr).toContain('agentGroupId: No agent group has id nope.');
    expect((await runCli(['api', '--help'])).stdout).toContain('gatehouse api import FILE');

    const server = await startTestServer({
      dataDir,
      settings: { 'Flags:EnableServiceApiAuditLogRoute': true },
    });
    try {
      const apis = await json<{ data: ApiDto[] }>(await server.api('/api/v1/apis'));
      expect(apis.data.map((api) => [api.name, api.basePath])).toEqual([['Orders (CLI)', '/orders-api/v1']]);
      const log = await json<{ items: AuditEntry[] }>(
        await server.api('/api/v1/audit-log?actionName=Apis.Import', { roles: ['Auditor'] }),
      );
      expect(log.items).toHaveLength(1);
      expect(log.items[0]).toMatchObject({
        userName: `cli:${userInfo().username}`,
        resources: [{ type: 'Api', id: apis.data[0]!.id, name: 'Orders (CLI)' }],
        parameters: { basePath: '/orders-api/v1', operationCount: 7 },
      });
      // The data dir is locked while the server runs.
      const locked = await runCli([
        'api',
        'import',
        join(SAMPLES, 'inventory-api.openapi.json'),
        '--data-dir',
        dataDir,
      ]);
      expect(locked.code).toBe(1);
      expect(locked.stderr).toContain(`pid ${process.pid}`);
    } finally {
      await server.close();
    }
  }, 180_000);

  it('imports from a URL (confirmed for loopback), prints warnings and skipped operations, re-imports from the same URL', async () => {
    const dataDir = join(dir.path, 'url-data');
    const descriptions = await DescriptionServer.start();
    try {
      const publish = (paths: Record<string, unknown>) =>
        descriptions.serve('/api/openapi.json', {
          openapi: '3.0.3',
          info: { title: 'Remote', version: '1' },
          servers: [{ url: '/remote' }],
          paths,
        });
      const ok = { responses: { '200': { description: 'ok' } } };
      publish({ '/a/{id}': { get: ok }, '/a/{other}': { get: ok }, '/b': { get: ok } });
      const url = descriptions.url('/api/openapi.json');
      const refused = await runCli(['api', 'import', url, '--data-dir', dataDir]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('127.0.0.1, a loopback or private address');
      expect(refused.stderr).toContain('--allow-private-address');
      expect(descriptions.requests).toEqual([]);

      const imported = await runCli(['api', 'import', url, '--allow-private-address', '--data-dir', dataDir]);
      expect(imported.code).toBe(0);
      expect(imported.stdout).toContain('Imported Remote 1');
      expect(imported.stdout).toContain('1 operation(s) not exposed:');
      expect(imported.stdout).toContain(
        "skipped GET /a/{other}: the gateway can't tell it apart from GET /a/{id}",
      );
      expect(imported.stdout).toContain('warning /paths/~1a~1{id}/get/parameters: path parameter {id}');

      publish({ '/a/{id}': { get: ok }, '/c': { get: ok } });
      const again = await runCli(['api', 'import', url, '--allow-private-address', '--data-dir', dataDir]);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain('Re-imported Remote 1');
      expect(again.stdout).toContain('revision 2, 1 operations kept, 1 added, 1 removed');
      expect(again.stdout).toMatch(/Operations added \(1\):\n {2}GET \/c/);
    } finally {
      await descriptions.close();
    }
  }, 180_000);
});
