import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson } from '../../../src-server/core/http/send.js';
import { rememberJson } from '../../../src-server/core/json/known-json.js';

/** A large answer is written a slice per turn (send.ts): what arrives must be the same JSON, byte for byte. */
describe('sendJson', () => {
  let server: Server;
  let base: string;
  let body: unknown;

  beforeAll(async () => {
    const app = express();
    app.all('/answer', (req, res) => sendJson(req, res, 200, body));
    server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers a large body intact, surrogate pairs and other multi-byte characters on the slice edges', async () => {
    // Items of odd lengths, so that pairs (😀), 3-byte (€) and 2-byte (é) characters fall on every offset.
    const items = Array.from({ length: 40_000 }, (_, index) => ({
      index,
      text: `${'x'.repeat(index % 7)}😀€é${'y'.repeat(index % 5)}`,
    }));
    body = { items };
    const expected = JSON.stringify(body);
    expect(expected.length).toBeGreaterThan(1024 * 1024);
    const response = await fetch(`${base}/answer`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(expected));
    const text = await response.text();
    expect(text).toBe(expected);
  });

  it('answers a body holding remembered JSON from its bytes, as JSON.stringify would write it', async () => {
    const items = Object.freeze(
      Array.from({ length: 30_000 }, (_, index) => ({ index, text: `${'x'.repeat(index % 7)}😀€é` })),
    );
    rememberJson(items, Buffer.from(JSON.stringify(items)));
    body = { api: { name: 'Big', items }, note: 'é' };
    const expected = JSON.stringify(body);
    const response = await fetch(`${base}/answer`);
    expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(expected));
    expect(await response.text()).toBe(expected);
  });

  it('answers a small body in one piece, and HEAD without a body', async () => {
    body = { small: 'é😀' };
    const response = await fetch(`${base}/answer`);
    expect(await response.json()).toEqual(body);
    const head = await fetch(`${base}/answer`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });
});
