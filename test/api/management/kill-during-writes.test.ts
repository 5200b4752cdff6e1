import { afterEach, describe, expect, it } from 'vitest';
import { runCli, startServeProcess, type ServeProcess } from '../../helpers/cli-process.js';
import { tempDir } from '../../helpers/temp-dir.js';

interface Page<T> {
  data: T[];
  paging: { totalCount: number };
}

const AUDIT_FLAG = ['--set', 'Flags:EnableServiceApiAuditLogRoute=true'];

/**
 * `kill -9` of `gatehouse serve` in the middle of a burst of writes, on the suite's engine: every write that was
 * answered 201 must be there after the restart, with its audit entry (both are committed before the answer
 * leaves). Writes cut off by the kill may or may not be there; they were never acknowledged.
 */
describe('kill -9 during a burst of writes', { timeout: 180_000 }, () => {
  let serve: ServeProcess | undefined;
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    serve?.child.kill('SIGKILL');
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('loses no acknowledged configuration change or audit entry', async () => {
    const dir = await tempDir();
    cleanups.push(dir.remove);
    serve = await startServeProcess(dir.path, AUDIT_FLAG);
    const tokenRun = await runCli(['token', '--roles', 'Operator', '--data-dir', dir.path]);
    expect(tokenRun.code).toBe(0);
    const headers = {
      Authorization: `Bearer ${tokenRun.stdout.trim()}`,
      'Content-Type': 'application/json',
    };

    const acknowledged: string[] = [];
    const burst = { stopping: false };
    // A call, not a property read: TypeScript would keep a narrowed `false` across the awaits.
    const stopped = () => burst.stopping;
    const writer = async (writerId: number) => {
      for (let i = 0; !stopped(); i++) {
        const name = `w${writerId}_${i}`;
        try {
          const response = await fetch(`${serve!.controlPanelUrl}/api/v1/environment-variables`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ kind: 'value', name, type: 'string' }),
          });
          if (response.status === 201) acknowledged.push(name);
          else if (!stopped()) throw new Error(`${response.status}: ${await response.text()}`);
        } catch (error) {
          if (!stopped()) throw error;
        }
      }
    };
    const writers = Array.from({ length: 8 }, (_, k) => writer(k));
    while (acknowledged.length < 40) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 200 + Math.random() * 400));
    burst.stopping = true;
    serve.child.kill('SIGKILL');
    await serve.exited;
    await Promise.all(writers);
    const acknowledgedCount = acknowledged.length;

    serve = await startServeProcess(dir.path, AUDIT_FLAG);
    const get = async <T>(path: string): Promise<T> =>
      (await (await fetch(`${serve!.controlPanelUrl}${path}`, { headers })).json()) as T;
    const stored = new Set<string>();
    for (let page = 1; ; page++) {
      const variables = await get<Page<{ name: string }>>(
        `/api/v1/environment-variables?PageSize=500&PageNumber=${page}`,
      );
      for (const variable of variables.data) stored.add(variable.name);
      if (page * 500 >= variables.paging.totalCount) break;
    }
    expect(acknowledged.filter((name) => !stored.has(name))).toEqual([]);

    const audited = new Set<string>();
    for (let page = 1; ; page++) {
      const entries = await get<{ items: { resources: { name?: string }[] }[]; totalCount: number }>(
        `/api/v1/audit-log?actionName=EnvironmentVariables.Create&PageSize=200&PageNumber=${page}`,
      );
      for (const entry of entries.items)
        for (const resource of entry.resources) audited.add(resource.name ?? '');
      if (page * 200 >= entries.totalCount) break;
    }
    expect(acknowledged.filter((name) => !audited.has(name))).toEqual([]);
    expect(acknowledgedCount).toBeGreaterThanOrEqual(40);
  });
});
