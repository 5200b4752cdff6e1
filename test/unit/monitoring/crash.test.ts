import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src-server/core/logging/logger.js';
import { Database } from '../../../src-server/core/storage/database.js';
import { createTestDatabase, ENGINES, untilOtherClientsLeft } from '../../helpers/test-database.js';
import { tempDir } from '../../helpers/temp-dir.js';

const CHILD = fileURLToPath(new URL('./fixtures/record-until-killed.ts', import.meta.url));

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Runs the child until it has acknowledged records, kills it with SIGKILL, returns the acknowledged ids. */
async function runAndKill(dataDir: string, connectionString: string | undefined): Promise<number[]> {
  const args = [CHILD, dataDir, ...(connectionString ? [connectionString] : [])];
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('exit', (_code, signal) => resolve(signal)),
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      // From the first acknowledged batch, not from 'ready': on SQLite the writer thread starts first, which
      // took 1.4-1.7 s under tsx at load 9, longer than the window below.
      const wasWriting = /^\d+$/m.test(stdout);
      stdout += chunk.toString();
      if (!wasWriting && /^\d+$/m.test(stdout)) {
        setTimeout(
          () => {
            child.kill('SIGKILL');
            resolve();
          },
          400 + Math.floor(Math.random() * 800),
        );
      }
    });
    child.on('exit', (code) => reject(new Error(`child exited on its own (${code}): ${stderr}`)));
  });
  expect(await exited).toBe('SIGKILL');
  expect(stderr).not.toMatch(/Error/);
  // Only complete lines: a line cut by the kill was never fully reported to us.
  return stdout
    .split('\n')
    .slice(0, -1)
    .filter((line) => /^\d+$/.test(line))
    .map(Number);
}

describe.each(ENGINES)('kill -9 while API monitoring records on %s', (engine) => {
  it(
    'keeps every acknowledged record (in the table, or moved aside by retention)',
    { timeout: 120_000 },
    async () => {
      const dir = await tempDir();
      cleanups.push(dir.remove);
      const connectionString = await createTestDatabase(engine);
      const acknowledged: number[] = [];
      for (let round = 0; round < 3; round++) {
        const ids = await runAndKill(dir.path, connectionString);
        expect(ids.length).toBeGreaterThan(0);
        acknowledged.push(...ids);
      }
      if (connectionString) await untilOtherClientsLeft(connectionString);
      const database = await Database.open({
        dataDir: dir.path,
        connectionString,
        logger: createLogger('silent'),
      });
      cleanups.push(() => database.close());
      const ids = async (table: 'monitoring_records' | 'monitoring_records_removed') =>
        (await database.db.selectFrom(table).select('id').execute()).map((row) => row.id);
      const present = new Set([
        ...(await ids('monitoring_records')),
        ...(await ids('monitoring_records_removed')),
      ]);
      expect(acknowledged.filter((id) => !present.has(id))).toEqual([]);
      // The roll-ups were written in the records' transactions: they still count exactly the records kept.
      const counted = await database.db
        .selectFrom('monitoring_rollups')
        .select((eb) => eb.fn.sum<number>('n').as('n'))
        .where('granularity_ms', '=', 3_600_000)
        .where('dimension', '=', '')
        .executeTakeFirst();
      expect(counted?.n ?? 0).toBe((await ids('monitoring_records')).length);
    },
  );
});
