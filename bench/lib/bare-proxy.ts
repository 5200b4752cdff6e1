/**
 * The baseline: node-http-proxy's API (http-proxy-3) behind a plain `http.createServer`, with a keep-alive agent
 * like the gateway's. Usage: bare-proxy <target origin>. Prints `{"port":N}` once listening.
 */
import { Agent, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProxyServer } from 'http-proxy-3';

const target = process.argv[2];
if (!target) throw new Error('usage: bare-proxy <target origin>');
const agent = new Agent({ keepAlive: true, maxFreeSockets: 256, scheduling: 'lifo' });
const proxy = createProxyServer({ target, agent });
proxy.on('error', (_error, _req, res) => {
  if ('writeHead' in res && !res.headersSent) res.writeHead(502).end();
  else res.destroy();
});
const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => proxy.web(req, res));
server.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
});
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
