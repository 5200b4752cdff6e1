import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';
import { expectProblem, importApi, sample } from './helpers.js';

/**
 * How an uploaded description is read: a declared length is read into one buffer as it arrives
 * (read-raw-body.ts); chunked and compressed bodies go through express.raw.
 */
describe('reading an uploaded description', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  /** A POST over a plain socket: `send` writes the body (or part of it, or none) as it likes. */
  async function rawPost(
    path: string,
    headers: Record<string, string | number>,
    send: (req: ReturnType<typeof request>) => void,
  ): Promise<{ status: number; connection: string | undefined; body: string }> {
    const target = new URL(path, server.url);
    const token = await server.token(['Operator']);
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, ...headers },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => {
            resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body });
            // A request whose body was never sent is still open.
            req.destroy();
          });
        },
      );
      req.on('error', reject);
      send(req);
    });
  }

  const rawImport = (
    headers: Record<string, string | number>,
    send: (req: ReturnType<typeof request>) => void,
  ) => rawPost('/api/v1/apis', headers, send);

  it('imports alike with a declared length, chunked, and gzip-encoded', async () => {
    const document = await sample('inventory-api.openapi.json');
    const declared = await importApi(server, document, { query: 'name=Declared' });
    // One base path per agent group: each import is removed before the next.
    const remove = async (id: string) =>
      expect((await server.api(`/api/v1/apis/${id}`, { method: 'DELETE' })).status).toBe(204);
    await remove(declared.id);
    const chunked = await rawImport(
      { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
      (req) => {
        const bytes = Buffer.from(document);
        req.write(bytes.subarray(0, 100));
        req.end(bytes.subarray(100));
      },
    );
    expect(chunked.status).toBe(201);
    await remove((JSON.parse(chunked.body) as { api: { id: string } }).api.id);
    const gzipped = gzipSync(Buffer.from(document));
    const encoded = await rawImport(
      { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'Content-Length': gzipped.length },
      (req) => req.end(gzipped),
    );
    expect(encoded.status).toBe(201);
    const operationsOf = (answer: string) =>
      (JSON.parse(answer) as { api: { operations: Array<{ key: string }> } }).api.operations.map(
        (operation) => operation.key,
      );
    expect(operationsOf(chunked.body)).toEqual(declared.operations.map((operation) => operation.key));
    expect(operationsOf(encoded.body)).toEqual(declared.operations.map((operation) => operation.key));
  });

  it('refuses a body declared larger than the limit at once, without waiting for it', async () => {
    // The client sends the head only: an answer that waited for the body would never come (the test would time out).
    const declaredOnly = (path: string, contentType: string) =>
      rawPost(path, { 'Content-Type': contentType, 'Content-Length': 1e9 }, (req) => req.flushHeaders());
    for (const [path, contentType] of [
      ['/api/v1/apis', 'application/json'],
      ['/api/v1/policies', 'application/json'],
    ] as const) {
      const refused = await declaredOnly(path, contentType);
      expect(refused.status, path).toBe(413);
      expect(refused.connection).toBe('close');
      expect(JSON.parse(refused.body)).toMatchObject({ code: 'GH_ERR_PAYLOAD_TOO_LARGE' });
    }
    // The server goes on serving.
    expect((await server.api('/api/v1/apis')).status).toBe(200);
  });

  it('stays up when a client goes away in the middle of a declared body', async () => {
    const document = Buffer.from(await sample('orders-api.openapi.yaml'));
    await new Promise<void>((resolve) => {
      const target = new URL('/api/v1/apis', server.url);
      void server.token(['Operator']).then((token) => {
        const req = request({
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: 'POST',
          headers: {
            Authorization: `Bearer ${token}`,
            'Content-Type': 'application/yaml',
            'Content-Length': document.length,
          },
        });
        req.on('error', () => resolve());
        req.write(document.subarray(0, document.length >> 1), () => {
          setTimeout(() => {
            req.destroy();
            resolve();
          }, 50);
        });
      });
    });
    const imported = await importApi(server, document, { contentType: 'application/yaml' });
    expect(imported.basePath).toBe('/orders-api/v1');
    await expectProblem(
      await server.api('/api/v1/apis', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '',
      }),
      400,
    );
  });
});
