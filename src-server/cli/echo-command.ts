import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { createEchoServer } from './echo-server.js';
import { parsePort } from './parse-port.js';
import { runUntilStopSignal } from './stop-signal.js';
import { CommandError } from './usage-error.js';

export const ECHO_HELP = `gatehouse echo [--host H] [--port N]

Starts a target that answers every request with the request it received (method, URL, headers, body) as
JSON — to see what a passthrough forwards. Listens on 127.0.0.1:9000 by default; --port 0 picks a free port.`;

export async function echoCommand(argv: string[], out: NodeJS.WritableStream): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { host: { type: 'string', default: '127.0.0.1' }, port: { type: 'string', default: '9000' } },
    strict: true,
  });
  const server = createEchoServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE' ? new CommandError(`Port ${values.port} is already in use.`) : error,
      ),
    );
    server.listen(parsePort(values.port, '--port'), values.host, resolve);
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  // The handlers in place before the line that invites the signal (as serve does).
  const stopped = runUntilStopSignal(
    out,
    () => new Promise<void>((resolve) => server.close(() => resolve())),
  );
  out.write(`Echo target: http://${host}:${port}\nPress Ctrl+C to stop.\n`);
  await stopped;
}
