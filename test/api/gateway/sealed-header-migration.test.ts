import { randomBytes, randomUUID } from 'node:crypto';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProblemDetails } from '../../../src-server/core/http/problem.js';
import { createLogger } from '../../../src-server/core/logging/logger.js';
import { withEntryDefaults } from '../../../src-server/core/passthrough/forwarding/index.js';
import type { ConfigData } from '../../../src-server/core/model/config-model.js';
import { SecretBox } from '../../../src-server/core/config-store/secret-box.js';
import { storedConfigText } from '../../helpers/stored-config.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import { startEchoUpstream, type EchoedRequest, type Upstream } from '../../helpers/upstreams.js';
import { send } from './gateway-fixture.js';

/**
 * A store written before header values were sealed holds literal credential values in clear: opening the data
 * dir (which converts it to the database) seals them. A sealed value the data dir's key can't decrypt (sealed
 * under another key) takes only its entry out of service.
 */

const OLD_LITERAL = 'old-literal-777';

let dir: { path: string; remove: () => Promise<void> };
let upstream: Upstream;
let server: TestServer | undefined;
let logLines: string[] = [];
const apiId = randomUUID();

const LEGACY = fileURLToPath(new URL('../../fixtures/legacy-data-dir/data/', import.meta.url));
const storeFile = () => join(dir.path, 'config', 'store.json');
const storedText = () => storedConfigText(server!.gatehouse.database);
const passthroughPath = `/api/v1/apis/${apiId}/passthrough`;

async function start(): Promise<TestServer> {
  logLines = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logLines.push(chunk.toString('utf8'));
      callback();
    },
  });
  server = await startTestServer({
    dataDir: dir.path,
    keepDataDir: true,
    logger: createLogger('info', destination),
  });
  return server;
}

async function stop(): Promise<void> {
  await server?.close();
  server = undefined;
}

async function forward(): Promise<{ status: number; echoed: EchoedRequest; problem: ProblemDetails }> {
  const response = await send(server!.gatewayUrl, { path: '/legacy-api/orders?t=query-token' });
  return {
    status: response.status,
    echoed: response.json() as EchoedRequest,
    problem: response.json() as ProblemDetails,
  };
}

/**
 * The shape a previous release wrote: a lowdb store of schema version 2 with a literal Authorization value in
 * clear (made from the legacy fixture's store, with its key file).
 */
async function writeOldStore(): Promise<void> {
  await mkdir(join(dir.path, 'config'), { recursive: true });
  await cp(join(LEGACY, 'keys', 'secrets.key'), join(dir.path, 'keys', 'secrets.key'), { recursive: true });
  const data = JSON.parse(await readFile(join(LEGACY, 'config', 'store.json'), 'utf8')) as ConfigData;
  const at = new Date().toISOString();
  data.schemaVersion = 2;
  data.apis.push({
    id: apiId,
    name: 'Legacy API',
    version: '1.0.0',
    specVersion: '3.1',
    basePath: '/legacy-api',
    agentGroupIds: ['default'],
    documentFile: 'none.json',
    operations: [],
    revision: 1,
    importedAt: at,
    updatedAt: at,
  });
  data.passthroughs.push({
    id: randomUUID(),
    apiId,
    allOperations: withEntryDefaults({
      target: { section1: upstream.url, section2: 'v1', section3: '{{#api.OperationPath}}' },
      headers: [
        { action: 'Overwrite', name: 'Authorization', value: `Bearer ${OLD_LITERAL}` },
        { action: 'Add', name: 'X-Auth-Token', value: 'Token {{#api.QueryParameters.t}}' },
      ],
    }),
    operations: {},
    revision: 1,
    createdAt: at,
    updatedAt: at,
  });
  data.policies.push({
    id: randomUUID(),
    name: 'Everyone',
    agentGroupId: 'default',
    endpoints: [{ method: 'ALL', pathPrefix: '/' }],
    grants: [{ type: 'public' }],
    createdAt: at,
    updatedAt: at,
  });
  await writeFile(storeFile(), JSON.stringify(data, null, 2));
}

beforeAll(async () => {
  dir = await tempDir('gatehouse-sealed-headers-');
  upstream = await startEchoUpstream();
  await writeOldStore();
});
afterAll(async () => {
  await stop();
  await upstream.close();
  await dir.remove();
});

describe('sealing the literal credential values of an older store', () => {
  it('seals them when the data dir is opened, durably, and still forwards them', async () => {
    expect(await readFile(storeFile(), 'utf8')).toContain(OLD_LITERAL);
    await start();

    const text = await storedText();
    expect(text).not.toContain(OLD_LITERAL);
    const data = JSON.parse(text) as ConfigData;
    expect(data.schemaVersion).toBe(3);
    const headers = data.passthroughs.find((passthrough) => passthrough.apiId === apiId)!.allOperations!
      .headers;
    expect(headers[0]).toEqual({
      action: 'Overwrite',
      name: 'Authorization',
      sealedValue: expect.stringMatching(/^v1:/),
    });
    expect(headers[1]).toEqual({
      action: 'Add',
      name: 'X-Auth-Token',
      value: 'Token {{#api.QueryParameters.t}}',
    });

    const sealedLog = logLines.find((line) => line.includes('sealed literal credential header values'));
    expect(JSON.parse(sealedLog!)).toMatchObject({ level: 30, sealed: 1 });
    expect(logLines.join('')).not.toContain(OLD_LITERAL);

    const { status, echoed } = await forward();
    expect(status).toBe(200);
    expect(echoed.headers.authorization).toBe(`Bearer ${OLD_LITERAL}`);
    expect(echoed.headers['x-auth-token']).toBe('Token query-token');

    // Nothing left to seal: the next start writes no new revision.
    const revision = server!.gatehouse.config.store.revision;
    await stop();
    await start();
    expect(server!.gatehouse.config.store.revision).toBe(revision);
    expect(await storedText()).toBe(text);
    expect(logLines.some((line) => line.includes('sealed literal credential header values'))).toBe(false);
    await stop();
  });

  it('takes only the entry whose sealed value cannot be decrypted out of service, and says why', async () => {
    // The value sealed under another key (as a store copied from another data dir would hold it).
    await start();
    const otherKey = join(dir.path, 'other.key');
    await writeFile(otherKey, randomBytes(32).toString('base64'));
    const otherBox = await SecretBox.open(otherKey);
    await server!.gatehouse.config.store.update((data) => {
      const entry = data.passthroughs.find((passthrough) => passthrough.apiId === apiId)!.allOperations!;
      entry.headers[0] = {
        action: 'Overwrite',
        name: 'Authorization',
        sealedValue: otherBox.seal(`Bearer ${OLD_LITERAL}`),
      };
    });
    await stop();
    const current = await start();

    const { status, problem } = await forward();
    expect(status).toBe(503);
    expect(problem.detail).toContain('cannot be decrypted');
    expect(logLines.some((line) => line.includes("key can't decrypt") && line.includes('"level":40'))).toBe(
      true,
    );

    // Unrelated routes and the configuration itself still answer.
    expect((await current.api('/api/v1/apis')).status).toBe(200);
    const read = await current.api(passthroughPath);
    expect(read.status).toBe(200);
    const configuration = (await read.json()) as {
      allOperations: { headers: { action: string; name: string; value?: string }[] };
    };
    expect(configuration.allOperations.headers[0]!.value).toBe('********');

    const preview = await current.api(`${passthroughPath}/preview`, {
      method: 'POST',
      body: JSON.stringify({ entry: 'allOperations' }),
    });
    expect(preview.status).toBe(200);
    expect(((await preview.json()) as { errors: unknown[] }).errors).toEqual([
      expect.objectContaining({ place: 'header:0', message: expect.stringContaining("can't be decrypted") }),
    ]);

    const keptMasked = await current.api(passthroughPath, {
      method: 'PUT',
      body: JSON.stringify({ allOperations: configuration.allOperations }),
    });
    expect(keptMasked.status).toBe(400);
    const invalid = (await keptMasked.json()) as ProblemDetails;
    expect(Object.keys(invalid.errors!)).toEqual(['allOperations.headers[0].value']);

    const headers = configuration.allOperations.headers.map((header, index) =>
      index === 0 ? { ...header, value: 'Bearer retyped-literal-888' } : header,
    );
    const retyped = await current.api(passthroughPath, {
      method: 'PUT',
      body: JSON.stringify({ allOperations: { ...configuration.allOperations, headers } }),
    });
    expect(retyped.status).toBe(200);
    expect(await storedText()).not.toContain('retyped-literal-888');
    const after = await forward();
    expect(after.status).toBe(200);
    expect(after.echoed.headers.authorization).toBe('Bearer retyped-literal-888');
  });
});
