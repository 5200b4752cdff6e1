import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DescriptionServer } from '../../helpers/description-server.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import type {
  ApiImportResult,
  ApiReimportResult,
  ApiSummary,
  ListPage,
} from '../../../src-server/core/contracts/index.js';
import { entry, expectProblem, json, send, type Passthrough } from './helpers.js';

/** A new API (201) or a re-import (200): the members of both answers. */
type ImportResult = ApiImportResult & Partial<ApiReimportResult>;

/** A multi-file description: the root names a path item file and a schema file next to it. */
function publishPets(descriptions: DescriptionServer, extraPath?: string): void {
  descriptions.serve(
    '/specs/openapi.yaml',
    [
      'openapi: 3.0.3',
      'info: { title: Pets, version: "1" }',
      'servers: [{ url: "" }]',
      'paths:',
      '  /pets:',
      "    $ref: './paths/pets.yaml'",
      '  /pets/{id}:',
      '    get:',
      '      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]',
      '      responses:',
      "        '200': { description: ok, content: { application/json: { schema: { $ref: './schemas/pet.yaml#/Pet' } } } }",
      ...(extraPath
        ? [`  ${extraPath}:`, '    get:', "      responses: { '200': { description: ok } }"]
        : []),
    ].join('\n'),
  );
  descriptions.serve(
    '/specs/paths/pets.yaml',
    [
      'get:',
      '  operationId: listPets',
      "  responses: { '200': { description: ok, content: { application/json: { schema: { type: array, items: { $ref: '../schemas/pet.yaml#/Pet' } } } } } }",
      'post:',
      '  operationId: addPet',
      "  responses: { '201': {} }",
    ].join('\n'),
  );
  descriptions.serve(
    '/specs/schemas/pet.yaml',
    'Pet: { type: object, properties: { name: { type: string } } }\n',
  );
}

describe('importing from a URL', () => {
  let server: TestServer;
  let descriptions: DescriptionServer;

  beforeAll(async () => {
    server = await startTestServer();
    descriptions = await DescriptionServer.start();
    publishPets(descriptions);
  });
  afterAll(async () => {
    await descriptions.close();
    await server.close();
  });

  const importFromUrl = (body: Record<string, unknown>) =>
    send(server, 'POST', '/api/v1/apis/from-url', body);

  it('needs a confirmation for a loopback address, and loads nothing without it', async () => {
    const before = descriptions.requests.length;
    const refused = await expectProblem(
      await importFromUrl({ url: descriptions.url('/specs/openapi.yaml') }),
      422,
      'GH_ERR_PRIVATE_ADDRESS',
    );
    expect(refused).toMatchObject({
      code: 'GH_ERR_PRIVATE_ADDRESS',
      host: '127.0.0.1',
      address: '127.0.0.1',
    });
    expect(refused.detail).toContain('allowPrivateAddress');
    expect(descriptions.requests.length).toBe(before);
    const localhost = await expectProblem(
      await importFromUrl({ url: descriptions.url('/specs/openapi.yaml').replace('127.0.0.1', 'localhost') }),
      422,
    );
    expect(localhost).toMatchObject({ code: 'GH_ERR_PRIVATE_ADDRESS', host: 'localhost' });
  });

  it('refuses what is no http(s) URL, and URLs with credentials', async () => {
    for (const url of [
      'file:///etc/passwd',
      'ftp://example.com/a.yaml',
      'not a url',
      'http://u:p@127.0.0.1/x',
    ]) {
      const problem = await expectProblem(await importFromUrl({ url, allowPrivateAddress: true }), 400);
      expect(Object.keys(problem.errors ?? {})).toEqual(['url']);
    }
  });

  it('imports a multi-file description, resolving its $refs relative to the URL, and keeps where it came from', async () => {
    const url = descriptions.url('/specs/openapi.yaml');
    const response = await importFromUrl({ url, allowPrivateAddress: true });
    const result = await json<ImportResult>(response);
    expect(response.status).toBe(201);
    expect(result.api.operations.map((operation) => operation.key)).toEqual([
      'GET /pets',
      'POST /pets',
      'GET /pets/{id}',
    ]);
    // servers: [{ url: "" }] is the document's own folder.
    expect(result.api.basePath).toBe('/specs');
    expect(result.api.source).toEqual({ kind: 'url', url, name: url });
    expect(descriptions.requests).toEqual(
      expect.arrayContaining(['/specs/openapi.yaml', '/specs/paths/pets.yaml', '/specs/schemas/pet.yaml']),
    );
    // The stored document is the bundle: no reference to another file is left.
    const stored = await (await server.api(`/api/v1/apis/${result.api.id}/document`)).text();
    expect(stored).not.toContain('.yaml');
    expect(JSON.parse(stored)).toMatchObject({ paths: { '/pets': { get: { operationId: 'listPets' } } } });
    expect(result.warnings).toEqual(
      expect.arrayContaining([
        {
          pointer: '/paths/~1pets/post/responses/201/description',
          message: 'a response should have a description',
        },
      ]),
    );
  });

  it('re-imports from the same URL: a new revision, its passthrough configuration kept', async () => {
    const url = descriptions.url('/specs/openapi.yaml');
    const apis = await json<ListPage<ApiSummary>>(await server.api('/api/v1/apis'));
    const api = apis.data.find((candidate) => candidate.source?.url === url)!;
    const created = await send(server, 'POST', `/api/v1/apis/${api.id}/passthrough`, {
      allOperations: entry('https://all.example.com'),
      operations: { 'GET /pets': entry('https://pets.example.com') },
    });
    expect(created.status).toBe(201);
    publishPets(descriptions, '/owners');
    const response = await importFromUrl({ url, allowPrivateAddress: true });
    const result = await json<ImportResult>(response);
    expect(response.status).toBe(200);
    expect(result.api).toMatchObject({ id: api.id, revision: 2 });
    expect(result.added).toEqual(['GET /owners']);
    expect(result.droppedPassthroughEntries).toEqual([]);
    const passthrough = await json<Passthrough>(await server.api(`/api/v1/apis/${api.id}/passthrough`));
    expect(Object.keys(passthrough.operations)).toEqual(['GET /pets']);
    expect(passthrough.allOperations?.target.section1).toBe('https://all.example.com');
  });

  it('says why a URL could not be loaded', async () => {
    const missing = await expectProblem(
      await importFromUrl({ url: descriptions.url('/nowhere.json'), allowPrivateAddress: true }),
      422,
      'GH_ERR_DOCUMENT_UNAVAILABLE',
    );
    expect(missing).toMatchObject({ code: 'GH_ERR_DOCUMENT_UNAVAILABLE', reason: 'http-status' });
    expect(missing.detail).toContain('answered 404');
    descriptions.handlers.set('/huge.json', (_req, res) => {
      // Declares more than 25 MiB: refused before a byte of the body is read.
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(30 * 1024 * 1024) });
      res.end();
    });
    const huge = await expectProblem(
      await importFromUrl({ url: descriptions.url('/huge.json'), allowPrivateAddress: true }),
      413,
      'GH_ERR_DOCUMENT_TOO_LARGE',
    );
    expect(huge.url).toBe(descriptions.url('/huge.json'));
    descriptions.serve('/not-openapi.json', { name: 'package', version: '1.0.0' });
    const notOpenApi = await expectProblem(
      await importFromUrl({ url: descriptions.url('/not-openapi.json'), allowPrivateAddress: true }),
      400,
    );
    expect(Object.keys(notOpenApi.errors!)).toEqual(['/openapi']);
  });
});
