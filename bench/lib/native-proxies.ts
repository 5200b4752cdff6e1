/**
 * The native peers of bench:proxy: nginx with one worker and haproxy with one thread, each a keep-alive reverse
 * proxy to the benchmark's target, configured in a temporary directory. Absent binaries are skipped with a note.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface NativeProxy {
  name: string;
  port: number;
  /** The process that serves the requests (nginx runs without a master: one process). */
  pid: number;
  child: ChildProcess;
}

function installed(binary: string, ...versionArgs: string[]): boolean {
  const probe = spawnSync(binary, versionArgs, { stdio: 'ignore' });
  return !probe.error;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function waitForPort(port: number, child: ChildProcess, name: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    const open = await fetch(`http://127.0.0.1:${port}/items/42`).then(
      (response) => response.arrayBuffer().then(() => true),
      () => false,
    );
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${name} did not start listening on ${port}`);
}

/**
 * One nginx process (`master_process off`, one worker) listening on a free loopback port with `http` block
 * `body`, configured in a temporary directory; `null` when nginx is not installed.
 */
async function startNginxWith(name: string, body: (listen: string) => string): Promise<NativeProxy | null> {
  const binary = ['/usr/sbin/nginx', 'nginx'].find((candidate) => installed(candidate, '-v'));
  if (!binary) return null;
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-nginx-'));
  const port = await freePort();
  writeFileSync(
    join(dir, 'nginx.conf'),
    `daemon off;
master_process off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log stderr error;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  keepalive_requests 1000000;
${body(`listen 127.0.0.1:${port};`)}
}
`,
  );
  const child = spawn(binary, ['-p', dir, '-c', join(dir, 'nginx.conf')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitForPort(port, child, 'nginx');
  return { name, port, pid: child.pid!, child };
}

/**
 * nginx answering every request itself with bench/lib/proxy-upstream.ts's JSON body: a target that costs far
 * less CPU than the Node one, for a run that measures how the gateway scales on cores it shares with it.
 */
export async function startNginxTarget(body: string): Promise<NativeProxy | string> {
  const nginx = await startNginxWith(
    'nginx target',
    (listen) => `  keepalive_timeout 60s;
  server {
    ${listen}
    default_type application/json;
    location / { return 200 '${body}'; }
  }`,
  );
  return nginx ?? 'nginx is not installed';
}

/** nginx, one worker process (`master_process off`), upstream keep-alive. */
export async function startNginx(targetPort: number): Promise<NativeProxy | string> {
  const nginx = await startNginxWith(
    'nginx, 1 worker',
    (
      listen,
    ) => `  upstream target { server 127.0.0.1:${targetPort}; keepalive 64; keepalive_requests 1000000; }
  server {
    ${listen}
    location / {
      proxy_pass http://target;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
    }
  }`,
  );
  return nginx ?? 'nginx is not installed: skipped';
}

/** haproxy, one thread, connections to the target reused. */
export async function startHaproxy(targetPort: number): Promise<NativeProxy | string> {
  const binary = ['/usr/sbin/haproxy', 'haproxy'].find((candidate) => installed(candidate, '-v'));
  if (!binary) return 'haproxy is not installed: skipped';
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-haproxy-'));
  const port = await freePort();
  writeFileSync(
    join(dir, 'haproxy.cfg'),
    `global
  nbthread 1
  maxconn 4096
defaults
  mode http
  timeout connect 5s
  timeout client 30s
  timeout server 30s
  http-reuse always
frontend bench
  bind 127.0.0.1:${port}
  default_backend target
backend target
  server s1 127.0.0.1:${targetPort}
`,
  );
  const child = spawn(binary, ['-db', '-f', join(dir, 'haproxy.cfg')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitForPort(port, child, 'haproxy');
  return { name: 'haproxy, 1 thread', port, pid: child.pid!, child };
}
