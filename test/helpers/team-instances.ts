import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startServeProcess, type ServeProcess } from './cli-process.js';
import { tempDir } from './temp-dir.js';
import { createTestDatabase } from './test-database.js';

/** One `gatehouse serve` of a team: its own data dir, the team's database and key file. */
export interface TeamInstance {
  name: string;
  dataDir: string;
  server: ServeProcess;
  /** Starts it again on its data dir (after it stopped or was killed); its ports change. */
  restart: () => Promise<ServeProcess>;
  /** SIGTERM, and waits for the exit code. */
  stop: () => Promise<number | null>;
  /** SIGKILL: gone at once, as in a crash. */
  kill: () => Promise<void>;
}

export interface Team {
  /** `postgres://…` of the team's database, on the tests' PostgreSQL server. */
  connectionString: string;
  /** The secrets key file every instance is given (`Secrets:KeyFile`). */
  keyFile: string;
  instances: TeamInstance[];
  /** Environment variables that point a CLI run at the team's database. */
  env: NodeJS.ProcessEnv;
  remove: () => Promise<void>;
}

/**
 * Instances of `gatehouse serve` on one real PostgreSQL database, on loopback and ephemeral ports, named by
 * `Instance:Id`: what a team runs on several machines. The first starts alone (it creates the schema and the
 * configuration), the others together.
 */
export async function startTeam(
  names: string[],
  options: {
    args?: string[];
    env?: NodeJS.ProcessEnv;
    /** The connection string an instance is given (to put a relay between it and the server). */
    connectionStringOf?: (name: string, connectionString: string) => string | Promise<string>;
  } = {},
): Promise<Team> {
  const root = await tempDir('gatehouse-team-');
  const connectionString = (await createTestDatabase('postgres'))!;
  const keyFile = join(root.path, 'secrets.key');
  await writeFile(keyFile, randomBytes(32).toString('base64'), { mode: 0o600 });
  const env = { ConnectionStrings__Gatehouse: connectionString, Secrets__KeyFile: keyFile, ...options.env };
  const instances: TeamInstance[] = [];
  const start = async (name: string): Promise<TeamInstance> => {
    const dataDir = join(root.path, name);
    const own = (await options.connectionStringOf?.(name, connectionString)) ?? connectionString;
    const launch = () =>
      startServeProcess(dataDir, options.args ?? [], {
        env: { ...env, ConnectionStrings__Gatehouse: own, Instance__Id: name },
        startTimeoutMs: 60_000,
      });
    const instance: TeamInstance = {
      name,
      dataDir,
      server: await launch(),
      async restart() {
        instance.server = await launch();
        return instance.server;
      },
      async stop() {
        instance.server.child.kill('SIGTERM');
        return instance.server.exited;
      },
      async kill() {
        instance.server.child.kill('SIGKILL');
        await instance.server.exited;
      },
    };
    return instance;
  };
  try {
    const [first, ...others] = names;
    if (first) instances.push(await start(first));
    instances.push(...(await Promise.all(others.map(start))));
  } catch (error) {
    for (const instance of instances) await instance.kill();
    await root.remove();
    throw error;
  }
  return {
    connectionString,
    keyFile,
    instances,
    env,
    async remove() {
      for (const instance of instances) {
        const { child } = instance.server;
        if (child.exitCode === null && child.signalCode === null) await instance.kill();
      }
      await root.remove();
    },
  };
}
