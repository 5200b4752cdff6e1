/**
 * The benchmark's target: a keep-alive HTTP server answering every request with the same small JSON body.
 * Prints `{"port":N}` once listening.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const body = Buffer.from(JSON.stringify({ id: 42, name: 'widget', price: 9.99, tags: ['a', 'b', 'c'] }));
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
