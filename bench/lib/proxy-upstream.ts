/**
 * The benchmark's target: a keep-alive HTTP server answering every request with the same small JSON body.
 * Prints `{"port":N}` once listening.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { TARGET_BODY } from './target-body.js';

const body = Buffer.from(TARGET_BODY);
const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
});
