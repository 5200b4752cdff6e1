import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, connect } from 'node:net';

export interface TestRedis {
  /** With the password, as a team's connection string would carry it. */
  url: string;
  password: string;
  port: number;
  /** SIGKILL: the server is gone at once, as in a crash. */
  kill: () => Promise<void>;
  /** Starts it again on the same port (empty: nothing is persisted). */
  restart: () => Promise<void>;
  /** SIGSTOP / SIGCONT: the connection stays open but nothing is answered (a server that hangs). */
  pause: () => void;
  resume: () => void;
  stop: () => Promise<void>;
}

const REDIS_SERVER = process.env.REDIS_SERVER ?? 'redis-server';

/** A real `redis-server` on a free loopback port with a password, without persistence, for one test file. */
export async function startTestRedis(): Promise<TestRedis> {
  const port = await freePort();
  const password = randomBytes(12).toString('hex');
  let child = await launch(port, password);
  return {
    url: `redis://:${password}@127.0.0.1:${port}`,
    password,
    port,
    async kill() {
      await ended(child, 'SIGKILL');
    },
    async restart() {
      child = await launch(port, password);
    },
    pause: () => void child.kill('SIGSTOP'),
    resume: () => void child.kill('SIGCONT'),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGCONT');
      await ended(child, 'SIGKILL');
    },
  };
}

async function launch(port: number, password: string): Promise<ChildProcess> {
  const child = spawn(
    REDIS_SERVER,
    [
      ...['--port', String(port), '--bind', '127.0.0.1', '--requirepass', password],
      ...['--save', '', '--appendonly', 'no', '--daemonize', 'no'],
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`redis-server exited:\n${output}`);
    if (await accepts(port)) return child;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`redis-server did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function ended(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A port the kernel just handed out and took back; redis-server cannot pick one itself. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
