import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { engineEnvironment } from './test-database.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The CLI bundled from the current source by the global setup (cli-bundle-global-setup.ts); else the source. */
const CLI = process.env.GATEHOUSE_TEST_CLI
  ? [process.env.GATEHOUSE_TEST_CLI]
  : ['--import', 'tsx', 'src-server/cli.ts'];

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The value of `--data-dir` in a command line. */
function dataDirOf(args: readonly string[]): string | undefined {
  const at = args.indexOf('--data-dir');
  return at === -1 ? undefined : args[at + 1];
}

/** Starts the CLI (as built from the current source) on the data dir's database of the suite's engine. */
export async function spawnCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ChildProcess> {
  const engine = await engineEnvironment(dataDirOf(args));
  return spawn(process.execPath, [...CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...engine, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** Runs the CLI (as built from the current source) to completion, on the data dir's database of the suite's engine. */
export async function runCli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; input?: string } = {},
): Promise<CliResult> {
  const child = await spawnCli(args, options.env);
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin!.end(options.input ?? '');
  });
}

export interface ServeProcess {
  child: ChildProcess;
  controlPanelUrl: string;
  gatewayUrl: string;
  signInUrl: string;
  output: () => string;
  /** Resolves with the exit code once the process ends. */
  exited: Promise<number | null>;
}

/**
 * Starts `gatehouse serve` on ephemeral ports and waits until it has printed its URLs. `detached` gives it its
 * own process group (to signal it and its workers as a terminal's Ctrl+C does).
 */
export async function startServeProcess(
  dataDir: string,
  extraArgs: string[] = [],
  options: {
    detached?: boolean;
    logLevel?: string;
    startTimeoutMs?: number;
    /** Set after the engine's: a team test names its own database, key file and instance. */
    env?: NodeJS.ProcessEnv;
  } = {},
): Promise<ServeProcess> {
  const child = spawn(
    process.execPath,
    [...CLI, 'serve', '--data-dir', dataDir, '--port', '0', '--gateway-port', '0', ...extraArgs],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        ...(await engineEnvironment(dataDir)),
        Logging__Level: options.logLevel ?? 'warn',
        // Tests stop servers with SIGTERM all the time; the ones about the readiness grace set it themselves.
        Shutdown__ReadinessGraceSeconds: '0',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: options.detached ?? false,
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + (options.startTimeoutMs ?? 20_000);
  while (!/Press Ctrl\+C to stop/.test(output)) {
    if (child.exitCode !== null) throw new Error(`serve exited early:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`serve did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const match = (pattern: RegExp) => pattern.exec(output)?.[1] ?? '';
  return {
    child,
    controlPanelUrl: match(/Control Panel:\s+(\S+)/),
    gatewayUrl: match(/Gateway \(Default\):\s+(\S+)/),
    signInUrl: match(/Sign in to the console[^:]*:\s+(\S+)/),
    output: () => output,
    exited,
  };
}
