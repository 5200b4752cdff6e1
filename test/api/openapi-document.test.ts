import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiResponseCheck } from '../helpers/openapi-check.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

interface Operation {
  operationId: string;
  description?: string;
  security?: unknown[];
  parameters: { name: string; in: string; example?: unknown; schema: Record<string, unknown> }[];
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, unknown>;
}
interface Document {
  openapi: string;
  info: { description?: string; license?: { name: string } };
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { required?: string[] }> };
}

const PLACEHOLDER_ID = '00000000-0000-4000-8000-000000000000';

function isIntegerPathParameter(operation: Operation, name: string): boolean {
  return operation.parameters.some(
    (parameter) => parameter.in === 'path' && parameter.name === name && parameter.schema.type === 'integer',
  );
}

/** Every operation of the document, with a request path that fills its parameters (a revision number: 1). */
function operationsOf(document: Document) {
  return Object.entries(document.paths).flatMap(([template, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      method: method.toUpperCase(),
      template,
      path: template.replace(/\{([^}]+)\}/g, (_match, name: string) =>
        isIntegerPathParameter(operation, name) ? '1' : PLACEHOLDER_ID,
      ),
      operation,
    })),
  );
}

/** A request with a Host header of our choosing (fetch does not allow one), answered as a fetch Response. */
function withHost(url: string, method: string, host: string): Promise<Response> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: target.hostname, port: target.port, method, path: target.pathname, headers: { Host: host } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers))
            if (typeof value === 'string') headers.set(name, value);
          const body = method === 'HEAD' ? null : Buffer.concat(chunks);
          resolve(new Response(body, { status: res.statusCode ?? 0, headers }));
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('the OpenAPI document', () => {
  let server: TestServer;
  let document: Document;
  beforeAll(async () => {
    server = await startTestServer({ settings: { 'Flags:EnableServiceApiAuditLogRoute': true } });
    document = (await (await server.api('/swagger/v1/swagger.json')).json()) as Document;
  });
  afterAll(() => server.close());

  it('names its server, license and purpose, and describes every operation', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: server.url, description: 'This Control Panel.' }]);
    expect(document.info.license?.name).toBe('UNLICENSED');
    expect(document.info.description).toContain('405');
    for (const { method, template, operation } of operationsOf(document)) {
      expect(operation.description, `${method} ${template}`).toMatch(/\S/);
    }
  });

  it('documents request bodies as a client may send them: a field with a default is not required', () => {
    const { schemas } = document.components;
    expect(schemas.CreateAgentGroup?.required).toEqual(['name', 'environmentId']);
    expect(schemas.CreateApiKey?.required).toEqual(['name', 'environmentId']);
    expect(schemas.CreateEnvironmentVariable).toBeDefined();
  });

  it('documents HEAD wherever GET is, and the server answers it with the GET status', async () => {
    for (const { method, template, path, operation } of operationsOf(document)) {
      if (method !== 'GET') continue;
      expect(document.paths[template]?.head?.operationId, template).toBe(`${operation.operationId}Head`);
      // server.api checks the answer against the document's head operation.
      const [get, head] = await Promise.all([server.api(path), server.api(path, { method: 'HEAD' })]);
      expect(head.status, template).toBe(get.status);
    }
  });

  it('documents the framework answers of every operation: 401, 403, 421, and 400 and 415 where a body is read', async () => {
    for (const { method, template, path, operation } of operationsOf(document)) {
      const where = `${method} ${template}`;
      const anonymous = Array.isArray(operation.security) && operation.security.length === 0;
      if (!anonymous) {
        // Each call is checked against the document by server.api.
        expect((await server.api(path, { method, token: null })).status, where).toBe(401);
        expect((await server.api(path, { method, roles: [] })).status, where).toBe(403);
      }
      const check = await openApiResponseCheck(server.url);
      const misdirected = await withHost(`${server.url}${path}`, method, 'evil.example');
      expect(misdirected.status, where).toBe(421);
      expect(await check.problemsOf(method, `${server.url}${path}`, misdirected)).toBeUndefined();

      if (!operation.requestBody) continue;
      const accepted = Object.keys(operation.requestBody.content);
      const unaccepted = accepted.includes('application/json')
        ? 'application/x-www-form-urlencoded'
        : 'image/png';
      const wrongType = await server.api(path, {
        method,
        headers: { 'Content-Type': unaccepted },
        body: 'x',
      });
      expect([415, 404], where).toContain(wrongType.status);
      if (accepted.includes('application/json')) {
        const malformed = await server.api(path, { method, body: '{"unclosed": ' });
        // A document taken as sent (a string body) that is read in the background is accepted first (202);
        // its import job then fails with the problem (test/api/management/import-jobs.test.ts).
        const readLater =
          operation.requestBody.content['application/json']?.schema.type === 'string' &&
          '202' in operation.responses;
        expect(readLater ? [202] : [400, 404], where).toContain(malformed.status);
      }
    }
  });

  it("documents 431 for a request head over Node's limit, answered before any route runs", async () => {
    // Checked against the document by server.api, like every answer.
    const tooLong = await server.api(`/api/v1/monitoring/requests?path=/${'x'.repeat(20_000)}`);
    expect(tooLong.status).toBe(431);
  });

  it('documents 413 for a body over the limit', async () => {
    const tooLarge = await server.api('/api/v1/environments', {
      method: 'POST',
      body: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(tooLarge.status).toBe(413);
  });

  it("prefills no filter in Swagger UI's Try it out: the first Execute of a list shows every entry", async () => {
    // Some entries to list: each create is audited.
    for (const name of ['Staging', 'Production']) {
      expect(
        (await server.api('/api/v1/environments', { method: 'POST', body: JSON.stringify({ name }) })).status,
      ).toBe(201);
    }
    for (const { method, template, path, operation } of operationsOf(document)) {
      if (method !== 'GET') continue;
      // What Swagger UI puts in each query field when "Try it out" opens: the example, else the default.
      const prefilled = new URLSearchParams();
      for (const parameter of operation.parameters.filter((candidate) => candidate.in === 'query')) {
        const value = parameter.example ?? parameter.schema.example ?? parameter.schema.default;
        // Swagger UI writes a query example as text; a structured one would be JSON.
        if (value !== undefined)
          prefilled.set(parameter.name, typeof value === 'string' ? value : JSON.stringify(value));
      }
      const [tried, plain] = await Promise.all([
        server.api(`${path}?${prefilled.toString()}`),
        server.api(path),
      ]);
      expect(tried.status, template).toBe(plain.status);
      if (template === '/api/v1/audit-log') {
        // The continuation tokens differ (each carries its expiry); the pages are the same.
        const { continuationToken: _tried, ...page } = (await tried.json()) as {
          totalCount: number;
          continuationToken?: string;
        };
        const { continuationToken: _plain, ...plainPage } = (await plain.json()) as {
          continuationToken?: string;
        };
        expect(page.totalCount).toBeGreaterThanOrEqual(2);
        expect(page).toEqual(plainPage);
      }
    }
  });
});
