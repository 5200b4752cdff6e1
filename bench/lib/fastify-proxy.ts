/**
 * The strongest Node peer: fastify with @fastify/reply-from (undici underneath), forwarding every request to the
 * target unchanged. Usage: fastify-proxy <target origin>. Prints `{"port":N}` once listening.
 */
import replyFrom from '@fastify/reply-from';
import Fastify from 'fastify';

const target = process.argv[2];
if (!target) throw new Error('usage: fastify-proxy <target origin>');
const app = Fastify({ logger: false });
await app.register(replyFrom, { base: target });
app.all('/*', (request, reply) => reply.from(request.url));
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
console.log(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 }));
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
