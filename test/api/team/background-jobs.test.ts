import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditLogPage, ControlPanelStatus } from '../../../src-server/core/contracts/index.js';
import { runCli } from '../../helpers/cli-process.js';
import { eventually } from '../../helpers/serve-client.js';
import { startTeam, type Team, type TeamInstance } from '../../helpers/team-instances.js';
import { tempDir } from '../../helpers/temp-dir.js';

let team: Team;
let database: pg.Client;
/** An Operator's token minted by `gatehouse token` with the team's connection string: every instance takes it. */
let operatorToken: string;

async function mintToken(roles: string): Promise<string> {
  const dir = await tempDir('gatehouse-token-');
  try {
    const minted = await runCli(['token', '--roles', roles, '--data-dir', join(dir.path, 'cli')], {
      env: team.env,
    });
    expect(minted.code, minted.stderr).toBe(0);
    return minted.stdout.trim();
  } finally {
    await dir.remove();
  }
}

/** The management API of one instance, with the Operator's token. */
function apiOf(instance: TeamInstance) {
  return async (path: string, init: { method?: string; body?: unknown } = {}) => {
    const response = await fetch(`${instance.server.controlPanelUrl}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        Authorization: `Bearer ${operatorToken}`,
        ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return { status: response.status, body: (await response.json()) as unknown };
  };
}

beforeAll(async () => {
  team = await startTeam(['A', 'B', 'C'], {
    env: { Flags__EnableServiceApiAuditLogRoute: 'true', Logging__Level: 'info' },
  });
  database = new pg.Client({ connectionString: team.connectionString });
  await database.connect();
  operatorToken = await mintToken('Operator');
}, 180_000);
afterAll(async () => {
  await database.end();
  await team.remove();
});

/** The instances whose background-jobs lock PostgreSQL has granted, by their sessions' names. */
async function holders(): Promise<string[]> {
  const { rows } = await database.query<{ name: string }>(
    `select a.application_name as name from pg_locks l join pg_stat_activity a on a.pid = l.pid
      where l.locktype = 'advisory' and l.granted and a.application_name like 'gatehouse-jobs:%'`,
  );
  return rows.map((row) => row.name.slice('gatehouse-jobs:'.length)).sort();
}

function runsJobs(instance: TeamInstance): boolean {
  return instance.server.output().includes('this instance now runs the background jobs');
}

/** Entries of 2020 (far past the 60-day retention of general entries), imported into the team's database by the CLI. */
async function importExpiredEntries(count: number): Promise<void> {
  const dir = await tempDir('gatehouse-jobs-import-');
  try {
    const file = join(dir.path, 'old.ndjson');
    const lines = Array.from({ length: count }, (_, index) =>
      JSON.stringify({
        actionName: 'Process.Deploy',
        userName: 'old-timer',
        timestamp: new Date(Date.UTC(2020, 0, 1, 0, index)).toISOString(),
        parameters: {},
      }),
    );
    await writeFile(file, `${lines.join('\n')}\n`);
    const imported = await runCli(['audit', 'import', file, '--data-dir', join(dir.path, 'cli')], {
      env: team.env,
    });
    expect(imported.code, imported.stderr).toBe(0);
  } finally {
    await dir.remove();
  }
}

describe('tokens and sign-in links on a team', () => {
  it('one key set: JWKS alike everywhere, a token from gatehouse token anywhere and a link of A work on every instance', async () => {
    const jwks = await Promise.all(
      team.instances.map(
        async ({ server }) =>
          (await (await fetch(`${server.controlPanelUrl}/oauth2/jwks`)).json()) as unknown,
      ),
    );
    expect(jwks[1]).toEqual(jwks[0]);
    expect(jwks[2]).toEqual(jwks[0]);
    // Minted by the CLI with the team's connection string and key file, on a data dir of its own (another machine).
    const token = await mintToken('Auditor');
    for (const { server } of team.instances) {
      const answer = await fetch(`${server.controlPanelUrl}/api/v1/activities`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(answer.status).toBe(200);
    }
    // The link A printed, redeemed at B (tickets live in the shared configuration), once.
    const a = team.instances[0]!.server;
    const b = team.instances[1]!.server;
    const ticket = /#signin=(.+)$/.exec(a.signInUrl)?.[1];
    const redeem = (at: string) =>
      fetch(`${at}/api/v1/session/sign-in`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ ticket }),
      });
    const session = await redeem(b.controlPanelUrl);
    expect(session.status).toBe(200);
    const { accessToken } = (await session.json()) as { accessToken: string };
    const onC = await fetch(`${team.instances[2]!.server.controlPanelUrl}/api/v1/activities`, {
      headers: { Authorization: `Bearer ${accessToken}` },
    });
    expect(onC.status).toBe(200);
    expect((await redeem(a.controlPanelUrl)).status).toBeGreaterThanOrEqual(400);
  }, 90_000);
});

describe('the Control Panel of each instance', () => {
  it('keeps its own pending settings and restart, and says which instance it is', async () => {
    const [a, b] = [apiOf(team.instances[0]!), apiOf(team.instances[1]!)];
    const status = async (api: typeof a) =>
      (await api('/api/v1/tenant/control-panel')).body as ControlPanelStatus;
    expect(await status(a)).toMatchObject({ instance: 'A', sharedDatabase: true, pendingRestart: false });
    const changed = await a('/api/v1/tenant/settings/Monitoring:MetricsRequireAuth', {
      method: 'PUT',
      body: { value: true },
    });
    expect(changed.status).toBe(200);
    expect(await status(a)).toMatchObject({ instance: 'A', pendingRestart: true });
    // B's settings file did not change: nothing waits for B's restart.
    expect(await status(b)).toMatchObject({ instance: 'B', sharedDatabase: true, pendingRestart: false });
  });
});

describe('background jobs on a team', () => {
  it('run on exactly one instance, and move to another when it is killed', async () => {
    await eventually(async () => (await holders()).length === 1);
    const [first] = await holders();
    // One holder, and it stays one: the others keep asking and are refused.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await holders()).toEqual([first]);
    expect(team.instances.filter(runsJobs).map((instance) => instance.name)).toEqual([first]);

    const survivor = team.instances.find((instance) => instance.name !== first)!;
    const api = apiOf(survivor);
    const expired = async () =>
      ((await api('/api/v1/audit-log?userName=old-timer')).body as AuditLogPage).totalCount;
    await importExpiredEntries(5);
    // The holder ran retention when it took the jobs; the next run is an hour away, so they stay for now.
    expect(await expired()).toBe(5);

    await team.instances.find((instance) => instance.name === first)!.kill();
    await eventually(async () => {
      const now = await holders();
      return now.length === 1 && now[0] !== first;
    }, 30_000);
    const [second] = await holders();
    expect(team.instances.filter((instance) => instance.name !== first && runsJobs(instance))).toHaveLength(
      1,
    );
    // The new holder ran the jobs at once: the expired entries are gone.
    await eventually(async () => (await expired()) === 0, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await holders()).toEqual([second]);
  }, 90_000);

  it('move when the holder stops cleanly too, and come back to a restarted instance only when free', async () => {
    const [holder] = await holders();
    const instance = team.instances.find((candidate) => candidate.name === holder)!;
    expect(await instance.stop()).toBe(0);
    await eventually(async () => {
      const now = await holders();
      return now.length === 1 && now[0] !== holder;
    }, 10_000);
    const [next] = await holders();
    await instance.restart();
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await holders()).toEqual([next]);
  }, 90_000);
});
