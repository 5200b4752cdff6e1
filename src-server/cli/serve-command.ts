import { parseArgs } from 'node:util';
import { findSettingDefinition, type SettingValue } from '../core/settings/setting-definitions.js';
import { SettingsError } from '../core/settings/settings.js';
import { DataDirLockedError } from '../core/data-dir/data-dir-lock.js';
import { AddressInUseError } from '../core/net/listener.js';
import { availableParallelism } from 'node:os';
import { startGatehouse } from '../app/gatehouse.js';
import { WorkerStartError } from '../app/cluster/worker-start-error.js';
import { packageInfo } from '../core/data-dir/package-root.js';
import { dataDirOption } from './offline-tenant.js';
import { parsePort } from './parse-port.js';
import { runUntilStopSignal } from './stop-signal.js';
import { CommandError, UsageError } from './usage-error.js';

export const SERVE_HELP = `gatehouse serve [--data-dir DIR] [--host H] [--port N] [--gateway-port N] [--set Key=Value]...
                [--workers N|auto] [--ui-dir DIR] [--no-sign-in-link]

Starts the Control Panel (management API, Swagger UI, console; 127.0.0.1:4700 by default) and the gateway
listener of the default agent group (127.0.0.1:8080). --port 0 / --gateway-port 0 pick free ports.
--set overrides any setting for this run (highest precedence).
--workers N runs the gateway listeners in N worker processes sharing their ports (auto: one per core); the
Control Panel and the stores stay in this process, which restarts a worker that dies.
Stops cleanly on Ctrl+C / SIGTERM: listeners stop accepting and drain (Shutdown:DrainSeconds). On SIGTERM they
first keep accepting while /readyz answers 503, for Shutdown:ReadinessGraceSeconds (a second signal ends it).`;

const MAX_WORKERS = 64;

function parseWorkers(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (value === 'auto') return availableParallelism();
  const count = /^\d{1,3}$/.test(value) ? Number(value) : NaN;
  if (!(count >= 1 && count <= MAX_WORKERS))
    throw new UsageError(`--workers takes a number from 1 to ${MAX_WORKERS}, or auto; got '${value}'.`);
  return count;
}

function parseSetOptions(entries: string[] | undefined): Record<string, SettingValue> {
  const result: Record<string, SettingValue> = {};
  for (const entry of entries ?? []) {
    const index = entry.indexOf('=');
    if (index <= 0) throw new UsageError(`--set takes Key=Value, got '${entry}'.`);
    const key = entry.slice(0, index);
    if (!findSettingDefinition(key)) throw new UsageError(`Unknown setting '${key}' in --set.`);
    result[key] = entry.slice(index + 1);
  }
  return result;
}

export async function serveCommand(argv: string[], out: NodeJS.WritableStream): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string' },
      host: { type: 'string' },
      port: { type: 'string' },
      'gateway-port': { type: 'string' },
      set: { type: 'string', multiple: true },
      'ui-dir': { type: 'string' },
      'no-sign-in-link': { type: 'boolean' },
      workers: { type: 'string' },
    },
    strict: true,
  });
  const dataDir = dataDirOption(values['data-dir']);
  const workers = parseWorkers(values.workers);
  const options = {
    dataDir,
    host: values.host,
    port: parsePort(values.port, '--port'),
    gatewayPort: parsePort(values['gateway-port'], '--gateway-port'),
    settings: parseSetOptions(values.set),
    uiDir: values['ui-dir'],
    command: 'serve',
  };
  let gatehouse;
  let workerLine: string | undefined;
  try {
    if (workers === undefined) gatehouse = await startGatehouse(options);
    else {
      // Loaded for --workers only: node:cluster brings child_process, dgram and more into every start.
      const { startGatehouseWithWorkers } = await import('../app/cluster/start-with-workers.js');
      const started = await startGatehouseWithWorkers({ ...options, workers });
      const pids = started.gateway.workers().map((worker) => worker.pid);
      workerLine = `Gateway workers: ${workers} (pids ${pids.join(', ')})`;
      gatehouse = started;
    }
  } catch (error) {
    if (
      error instanceof DataDirLockedError ||
      error instanceof SettingsError ||
      error instanceof AddressInUseError ||
      error instanceof WorkerStartError
    )
      throw new CommandError(error.message, error);
    throw error;
  }

  const url = gatehouse.controlPanelUrl();
  const lines = [
    `Gatehouse ${packageInfo().version}  data dir: ${dataDir}`,
    `Control Panel:  ${url}`,
    `Swagger UI:     ${url}/swagger/index.html`,
    ...gatehouse.gatewayEndpoints().map((endpoint) => `Gateway (${endpoint.name}): ${endpoint.url}`),
    ...(workerLine ? [workerLine] : []),
  ];
  if (!values['no-sign-in-link']) {
    lines.push(`Sign in to the console (one-time link, 10 minutes): ${await gatehouse.createSignInUrl()}`);
  }
  lines.push('Press Ctrl+C to stop.');

  // SIGTERM (a service manager, a rolling restart) keeps accepting for the readiness grace while /readyz says 503;
  // Ctrl+C is someone at the terminal who wants it stopped now. The handlers are in place before the line that
  // says so is out: a signal sent on reading it found none on a loaded machine, and killed the process outright.
  const stopped = runUntilStopSignal(out, (signal, hurry) =>
    gatehouse.close({ readinessGrace: signal === 'SIGTERM', cutGraceShort: hurry }),
  );
  out.write(`${lines.join('\n')}\n`);
  await stopped;
}
