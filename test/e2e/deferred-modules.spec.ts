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

/**
 * Imports the sample API offline (the import pipeline in the calling thread: YAML parser, $ref bundler), then runs
 * `serve` on that data dir for `use` and stops it; no error may reach the log.
 */
async function withServedSample(
  settings: Record<string, string>,
  use: (url: string, dataDir: string, env: NodeJS.ProcessEnv) => Promise<void>,
): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'gatehouse-deferred-'));
  const env = { ...process.env, Logging__Level: 'warn', Shutdown__ReadinessGraceSeconds: '0', ...settings };
  try {
    const imported = await shell(
      process.execPath,
      [CLI, 'api', 'import', join(ROOT, 'resources/samples/orders-api.openapi.yaml'), '--data-dir', dataDir],
      { cwd: ROOT, env },
    );
    expect(imported.stdout).toMatch(/Imported/i);
    const child = spawn(
      process.execPath,
      [CLI, 'serve', '--data-dir', dataDir, '--port', '0', '--gateway-port', '0', '--no-sign-in-link'],
      { cwd: ROOT, env },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await expect.poll(() => output, { timeout: 30_000 }).toContain('Press Ctrl+C to stop');
      await use(/Control Panel:\s+(\S+)/.exec(output)![1]!, dataDir, env);
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    expect(output).not.toMatch(/"level":(50|60)/);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

test('the built CLI loads its deferred modules on first use: API import, metrics, the OpenAPI document', async () => {
  await withServedSample({}, async (url) => {
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
  });
});

// The build bundles some dependencies into files of their own that their callers load at the first call
// (scripts/build-server.mjs): a charset other than UTF-8 (iconv-lite), a static file's type (mime-types) and a
// passthrough's template (Handlebars) each take that path here.
test('the built CLI loads the dependencies deferred to their first call: charsets, file types, templates', async () => {
  await withServedSample({ Flags__EnableServiceApiAuditLogRoute: 'true' }, async (url, dataDir, env) => {
    const token = (
      await shell(process.execPath, [CLI, 'token', '--data-dir', dataDir, '--roles', 'Administrator'], {
        env,
      })
    ).stdout.trim();
    const authorization = `Bearer ${token}`;

    const saved = await fetch(`${url}/api/v1/audit-log/saved-filters`, {
      method: 'POST',
      headers: { Authorization: authorization, 'Content-Type': 'application/json; charset=utf-16le' },
      body: Buffer.from(
        JSON.stringify({ name: 'Zürich – Größe', filter: { actionName: 'Api.Create' } }),
        'utf16le',
      ),
    });
    expect(saved.status).toBe(201);
    expect(((await saved.json()) as { name: string }).name).toBe('Zürich – Größe');

    const apis = (await (
      await fetch(`${url}/api/v1/apis`, { headers: { Authorization: authorization } })
    ).json()) as {
      data: { id: string }[];
    };
    const preview = await fetch(`${url}/api/v1/apis/${apis.data[0]!.id}/passthrough/preview`, {
      method: 'POST',
      headers: { Authorization: authorization, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        configuration: {
          allOperations: {
            target: {
              section1: 'https://backend.example.com',
              section2: 'all',
              section3: '{{#api.OperationPath}}',
            },
          },
        },
        entry: 'allOperations',
        sample: { url: '/a/b' },
      }),
    });
    expect(preview.status).toBe(200);
    expect(await preview.json()).toMatchObject({
      targetUrl: 'https://backend.example.com/all/a/b',
      errors: [],
    });

    const stylesheet = await fetch(`${url}/swagger/swagger-ui.css`);
    expect(stylesheet.status).toBe(200);
    expect(stylesheet.headers.get('content-type')).toBe('text/css; charset=utf-8');
    await stylesheet.arrayBuffer();
  });
});
