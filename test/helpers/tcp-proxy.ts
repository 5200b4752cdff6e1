import { connect, createServer, type Server, type Socket } from 'node:net';

/** A TCP relay on loopback whose link can be cut (every connection reset, new ones refused) and restored. */
export interface TcpProxy {
  port: number;
  cut: () => Promise<void>;
  restore: () => Promise<void>;
  close: () => Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = async () => {
    const created = createServer((client) => {
      const upstream = connect(target.port, target.host);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve) => created.listen(port, '127.0.0.1', resolve));
    port = (created.address() as { port: number }).port;
    server = created;
  };
  const stop = async () => {
    const closing = server;
    server = undefined;
    for (const socket of sockets) socket.resetAndDestroy();
    if (closing) await new Promise((resolve) => closing.close(resolve));
  };
  await listen();
  return { port, cut: stop, restore: listen, close: stop };
}
