import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';

// `gatehouse serve` imports some dependencies at their first use rather than at start (docs/CONTRIBUTING.md). In
// the built CLI (esbuild's bundle, out/server) a deferred module is a chunk of its own, loaded differently from
// the sources the API tests run: these run each deferred path in the build. (The first forwarded request is
// getting-started.spec.ts's.)
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'out/server/cli.js');
const shell = promisify(execFile);

test('the built CLI loads its deferred modules on first use: API import, metrics, the OpenAPI document', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'gatehouse-deferred-'));
  try {
    // The offline import runs the import pipeline in the calling thread (YAML parser, $ref bundler).
    const imported = await shell(
      process.execPath,
      [CLI, 'api', 'import', join(ROOT, 'resources/samples/orders-api.openapi.yaml'), '--data-dir', dataDir],
      { cwd: ROOT },
    );
    expect(imported.stdout).toMatch(/Imported/i);

    const child = spawn(
      process.execPath,
      [CLI, 'serve', '--data-dir', dataDir, '--port', '0', '--gateway-port', '0', '--no-sign-in-link'],
      { cwd: ROOT, env: { ...process.env, Logging__Level: 'warn', Shutdown__ReadinessGraceSeconds: '0' } },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await expect.poll(() => output, { timeout: 30_000 }).toContain('Press Ctrl+C to stop');
      const url = /Control Panel:\s+(\S+)/.exec(output)![1]!;

      const metrics = await fetch(`${url}/metrics`);
      expect(metrics.status).toBe(200);
      expect(metrics.headers.get('content-type')).toContain('text/plain');
      const text = await metrics.text();
      expect(text).toContain('gatehouse_monitoring_dropped_records_total{reason=');
      expect(text).toContain('process_cpu_user_seconds_total');

      const document = (await (await fetch(`${url}/swagger/v1/swagger.json`)).json()) as {
        components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
      };
      // A documented body's JSON Schema is completed when the first document is built.
      expect(Object.keys(document.components.schemas.CreatePassthrough?.properties ?? {})).toContain(
        'allOperations',
      );
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    expect(output).not.toMatch(/"level":(50|60)/);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
