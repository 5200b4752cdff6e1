import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

let ui: Awaited<ReturnType<typeof tempDir>>;
let server: TestServer;

beforeAll(async () => {
  ui = await tempDir('gatehouse-ui-');
  await mkdir(join(ui.path, 'assets'));
  await writeFile(join(ui.path, 'index.html'), '<!doctype html><title>Gatehouse</title>');
  await writeFile(join(ui.path, 'assets', 'index-Bx7f3k2Q.js'), 'console.log(1);');
  await writeFile(join(ui.path, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  server = await startTestServer({ uiDir: ui.path });
});
afterAll(async () => {
  await server.close();
  await ui.remove();
});

async function cacheControlOf(path: string): Promise<string | null> {
  const response = await fetch(`${server.url}${path}`, { headers: { Accept: 'text/html,*/*' } });
  await response.arrayBuffer();
  expect(response.status).toBe(200);
  return response.headers.get('cache-control');
}

describe('the console files', () => {
  it('caches hashed assets for good', async () => {
    expect(await cacheControlOf('/assets/index-Bx7f3k2Q.js')).toBe('public, max-age=31536000, immutable');
  });

  it('revalidates index.html every time, however it is asked for', async () => {
    expect(await cacheControlOf('/')).toBe('no-cache');
    expect(await cacheControlOf('/index.html')).toBe('no-cache');
    expect(await cacheControlOf('/apis/some-id/passthrough')).toBe('no-cache');
  });

  it('caches other files for an hour', async () => {
    expect(await cacheControlOf('/favicon.svg')).toBe('public, max-age=3600');
  });
});
