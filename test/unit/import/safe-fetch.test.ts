import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isNonPublicAddress } from '../../../src-server/control/apis/import-pipeline/address-policy.js';
import { fetchDocument, FetchFailure } from '../../../src-server/control/apis/import-pipeline/safe-fetch.js';
import { DescriptionServer } from '../../helpers/description-server.js';

const limits = { maxBytes: 1024, timeoutMs: 500, maxRedirects: 2 };
const allowed = { allowPrivateAddress: true, limits };

async function failure(promise: Promise<unknown>): Promise<FetchFailure> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof FetchFailure)) throw new Error(`expected a FetchFailure, got ${String(error)}`);
  return error;
}

describe('loading a description over HTTP (real sockets)', () => {
  let server: DescriptionServer;
  beforeAll(async () => {
    server = await DescriptionServer.start();
    server.serve('/small.json', '{"openapi":"3.0.3"}');
    server.serve('/big.json', 'x'.repeat(2048));
    server.handlers.set('/chunked-big', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      for (let index = 0; index < 8; index++) res.write('y'.repeat(256));
      res.end();
    });
    server.handlers.set('/bomb', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
      res.end(gzipSync(Buffer.alloc(1024 * 1024, 0x20)));
    });
    server.handlers.set('/gzip', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
      res.end(gzipSync('{"swagger":"2.0"}'));
    });
    server.handlers.set('/slow', () => undefined);
    server.handlers.set('/loop', (_req, res) => res.writeHead(302, { Location: '/loop' }).end());
    server.handlers.set('/moved', (_req, res) => res.writeHead(301, { Location: '/small.json' }).end());
  });
  afterAll(() => server.close());

  it('loads a document, following a redirect, decompressing gzip', async () => {
    const small = await fetchDocument(server.url('/moved'), allowed);
    expect(small.body.toString()).toBe('{"openapi":"3.0.3"}');
    expect(small.finalUrl).toBe(server.url('/small.json'));
    expect(small.mediaType).toBe('application/json');
    expect((await fetchDocument(server.url('/gzip'), allowed)).body.toString()).toBe('{"swagger":"2.0"}');
  });

  it('stops at the size limit: declared, streamed, or once decompressed', async () => {
    expect((await failure(fetchDocument(server.url('/big.json'), allowed))).reason).toBe('too-large');
    expect((await failure(fetchDocument(server.url('/chunked-big'), allowed))).reason).toBe('too-large');
    expect((await failure(fetchDocument(server.url('/bomb'), allowed))).reason).toBe('too-large');
  });

  it('stops at the time limit and after too many redirects', async () => {
    // '/slow' never answers: only the 500 ms limit can end this fetch.
    expect((await failure(fetchDocument(server.url('/slow'), allowed))).reason).toBe('timeout');
    expect((await failure(fetchDocument(server.url('/loop'), allowed))).reason).toBe('too-many-redirects');
  });

  it('refuses a loopback address without the confirmation, before connecting', async () => {
    const before = server.requests.length;
    const refused = await failure(
      fetchDocument(server.url('/small.json'), { allowPrivateAddress: false, limits }),
    );
    expect(refused).toMatchObject({
      reason: 'private-address',
      code: 'GH_ERR_PRIVATE_ADDRESS',
      details: { address: '127.0.0.1' },
    });
    expect(server.requests.length).toBe(before);
  });
});

describe('which addresses need a confirmation', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fd00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
  ])('%s is not public', (address) => {
    expect(isNonPublicAddress(address)).toBe(true);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8'])('%s is public', (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
  });
});
