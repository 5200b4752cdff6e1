import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewAuditEntry } from '../../src-server/core/audit/audit-entry.js';
import { verifyStoredChains } from '../../src-server/core/audit/chain/chain-verify-store.js';
import type {
  AuditChainVerification,
  AuditVerificationRun,
} from '../../src-server/core/contracts/audit-chain-schemas.js';
import { createLogger } from '../../src-server/core/logging/logger.js';
import { Database } from '../../src-server/core/storage/database.js';
import { runCli } from '../helpers/cli-process.js';
import { databaseOfDataDir } from '../helpers/test-database.js';
import { tempDir } from '../helpers/temp-dir.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const BASE = Date.parse('2026-03-01T00:00:00.000Z');
const NOW = BASE + 3_600_000;

function entries(count: number, user = 'alice', from = BASE): NewAuditEntry[] {
  return Array.from({ length: count }, (_, k) => ({
    actionName: 'Role.Modify',
    userName: user,
    timestamp: new Date(from + k * 1_000).toISOString(),
    parameters: { k, roleId: `r-${k}` },
    resources: [],
    category: 'general' as const,
  }));
}

/** Tamper evidence end to end: a real server, the rows edited directly in its database, the CLI. */
describe('audit chain verification (tamper evidence)', () => {
  let server: TestServer;
  let database: Database;
  const dir = { path: '', remove: async () => {} };

  beforeAll(async () => {
    Object.assign(dir, await tempDir());
    server = await startTestServer({
      dataDir: dir.path,
      keepDataDir: true,
      settings: { 'Flags:EnableServiceApiAuditLogRoute': true, 'Audit:CheckpointIntervalSeconds': 1 },
      now: () => new Date(NOW),
    });
    for (const tenant of [
      'acme',
      't-edit',
      't-delete',
      't-renumber',
      't-renumber-run',
      't-insert',
      't-shift',
      't-reorder',
      't-tail',
    ]) {
      await server.gatehouse.audit.store.importEntries(entries(20), undefined, { tenant });
    }
    // The tampering happens through a connection of its own, as someone editing the database would.
    database = await Database.open({
      dataDir: dir.path,
      connectionString: await databaseOfDataDir(dir.path),
      logger: createLogger('silent'),
    });
    // A checkpoint is signed within the interval.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
  });
  afterAll(async () => {
    await database.close();
    await server.close();
    await dir.remove();
  });

  async function verify(tenant: string): Promise<AuditChainVerification> {
    const response = await server.api(`/api/v1/audit-log/verification?tenant=${tenant}`, {
      roles: ['Auditor'],
    });
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as AuditChainVerification;
  }

  it('reports an untouched trail intact, with its signed checkpoint', async () => {
    const result = await verify('acme');
    expect(result.intact).toBe(true);
    expect(result.items).toEqual([
      expect.objectContaining({ tenant: 'acme', intact: true, entries: 20, removedByPolicy: 0 }),
    ]);
    expect(result.items[0]!.checkpoints).toBeGreaterThanOrEqual(1);
    expect(result.items[0]!.lastCheckpoint?.seq).toBe(20);
    expect(result.publicKey).toMatch(/^[A-Za-z0-9+/]+=*$/);
  });

  it("verifies every tenant's chain when none is named, Gatehouse's own included", async () => {
    const response = await server.api('/api/v1/audit-log/verification', { roles: ['Auditor'] });
    const result = (await response.json()) as AuditChainVerification;
    expect(result.items.map((item) => item.tenant)).toEqual(
      expect.arrayContaining(['gatehouse', 'acme', 't-edit']),
    );
    expect(result.items.find((item) => item.tenant === 'gatehouse')?.intact).toBe(true);
  });

  it('names an edited entry', async () => {
    await sql`update audit_entries set entry = replace(entry, 'alice', 'mallory') where tenant = 't-edit' and chain_seq = 5`.execute(
      database.db,
    );
    const verdict = (await verify('t-edit')).items[0]!;
    expect(verdict.intact).toBe(false);
    expect(verdict.broken).toMatchObject({ kind: 'edited', seq: 5 });
    expect(verdict.entries).toBe(4);
  });

  it('names a deleted entry', async () => {
    await database.db
      .deleteFrom('audit_entries')
      .where('tenant', '=', 't-delete')
      .where('chain_seq', '=', 7)
      .execute();
    const verdict = (await verify('t-delete')).items[0]!;
    expect(verdict.broken).toMatchObject({ kind: 'removed', seq: 8 });
    expect(verdict.broken?.message).toContain('places 7–7');
  });

  /** Deletes `count` entries from place `seq` and moves every later entry down as many places (a free range first: places are unique). */
  async function deleteAndRenumber(tenant: string, seq: number, count: number): Promise<number> {
    const first = await database.db
      .selectFrom('audit_entries')
      .select('id')
      .where('tenant', '=', tenant)
      .where('chain_seq', '=', seq + count)
      .executeTakeFirstOrThrow();
    await database.db
      .deleteFrom('audit_entries')
      .where('tenant', '=', tenant)
      .where('chain_seq', '>=', seq)
      .where('chain_seq', '<', seq + count)
      .execute();
    await sql`update audit_entries set chain_seq = chain_seq + 1000 where tenant = ${tenant} and chain_seq >= ${seq}`.execute(
      database.db,
    );
    await sql`update audit_entries set chain_seq = chain_seq - ${1000 + count} where tenant = ${tenant} and chain_seq >= 1000`.execute(
      database.db,
    );
    return first.id;
  }

  it('names a deleted entry removed when the entries after it were renumbered', async () => {
    const movedId = await deleteAndRenumber('t-renumber', 7, 1);
    const verdict = (await verify('t-renumber')).items[0]!;
    expect(verdict.broken).toMatchObject({ kind: 'removed', seq: 7, entryId: movedId });
    expect(verdict.broken?.message).toContain('places 7–7');
    expect(verdict.entries).toBe(6);

    // Three deleted, the rest renumbered, and the head moved down to match: the signed checkpoint still tells.
    const runId = await deleteAndRenumber('t-renumber-run', 4, 3);
    await database.db
      .updateTable('audit_chain_heads')
      .set({ seq: 17 })
      .where('tenant', '=', 't-renumber-run')
      .execute();
    const run = (await verify('t-renumber-run')).items[0]!;
    expect(run.broken).toMatchObject({ kind: 'removed', seq: 4, entryId: runId });
    expect(run.broken?.message).toContain('places 4–6');
    expect(run.broken?.message).toContain('was recorded at place 7');
  });

  it('names an entry inserted without a link, and one inserted with the others renumbered', async () => {
    await sql`insert into audit_entries (id, tenant, time_ms, action_key, user_key, category, agent_group_id, content_hash, entry, recorded_at, instance)
      select id + 1000000, tenant, time_ms, action_key, user_key, category, agent_group_id, content_hash, replace(entry, 'alice', 'eve'), recorded_at, instance
      from audit_entries where tenant = 't-insert' and chain_seq = 3`.execute(database.db);
    expect((await verify('t-insert')).items[0]!.broken).toMatchObject({ kind: 'inserted' });

    // Places 10… move up by one (through a free range: the place is unique), and a forged entry takes place 10.
    await sql`update audit_entries set chain_seq = chain_seq + 1000 where tenant = 't-shift' and chain_seq >= 10`.execute(
      database.db,
    );
    await sql`update audit_entries set chain_seq = chain_seq - 999 where tenant = 't-shift' and chain_seq >= 1000`.execute(
      database.db,
    );
    await sql`insert into audit_entries (id, tenant, time_ms, action_key, user_key, category, agent_group_id, content_hash, entry, recorded_at, instance, chain_seq, chain_hash)
      select id + 2000000, tenant, time_ms, action_key, user_key, category, agent_group_id, content_hash, replace(entry, 'alice', 'eve'), recorded_at, instance, 10, chain_hash
      from audit_entries where tenant = 't-shift' and chain_seq = 11`.execute(database.db);
    expect((await verify('t-shift')).items[0]!.broken).toMatchObject({ kind: 'inserted', seq: 10 });
  });

  it('names reordered entries', async () => {
    await sql`update audit_entries set chain_seq = 1000 where tenant = 't-reorder' and chain_seq = 12`.execute(
      database.db,
    );
    await sql`update audit_entries set chain_seq = 12 where tenant = 't-reorder' and chain_seq = 13`.execute(
      database.db,
    );
    await sql`update audit_entries set chain_seq = 13 where tenant = 't-reorder' and chain_seq = 1000`.execute(
      database.db,
    );
    expect((await verify('t-reorder')).items[0]!.broken).toMatchObject({ kind: 'reordered', seq: 12 });
  });

  it('names the last entries deleted after a checkpoint', async () => {
    await database.db
      .deleteFrom('audit_entries')
      .where('tenant', '=', 't-tail')
      .where('chain_seq', '>=', 19)
      .execute();
    expect((await verify('t-tail')).items[0]!.broken).toMatchObject({ kind: 'removed', seq: 19 });
  });

  it('tells a removal by retention from a deletion', async () => {
    // A day older than the other tenants' entries, which retention leaves alone.
    const from = BASE - 86_400_000;
    await server.gatehouse.audit.store.importEntries(entries(10, 'old', from), undefined, {
      tenant: 't-retention',
    });
    const removed = await server.gatehouse.audit.store.applyRetention({
      now: NOW,
      maxAgeMs: NOW - (from + 5_000), // entries older than 5 s after the first go: places 1–5
      agentWindow: 1000,
      isResourceLive: () => true,
    });
    expect(removed.removed).toBe(5);
    const verdict = (await verify('t-retention')).items[0]!;
    expect(verdict).toMatchObject({ intact: true, entries: 5, removedByPolicy: 5 });
    const record = await database.db
      .selectFrom('audit_chain_removals')
      .selectAll()
      .where('tenant', '=', 't-retention')
      .executeTakeFirstOrThrow();
    expect(record).toMatchObject({
      from_seq: 1,
      to_seq: 5,
      count: 5,
      policy: 'retention',
      prev_hash: '0'.repeat(64),
    });

    // The record forged to cover a deletion (a changed range) no longer carries a valid signature.
    await database.db
      .deleteFrom('audit_entries')
      .where('tenant', '=', 't-retention')
      .where('chain_seq', '=', 6)
      .execute();
    await database.db
      .updateTable('audit_chain_removals')
      .set({ to_seq: 6, count: 6 })
      .where('tenant', '=', 't-retention')
      .execute();
    const forged = (await verify('t-retention')).items[0]!.broken;
    expect(forged).toMatchObject({ kind: 'removed', seq: 7 });
    expect(forged?.message).toContain('places 1–6');
  });

  it(
    'follows a verification run: the total at once, the entries checked up to it, then the verdict',
    { timeout: 60_000 },
    async () => {
      await server.gatehouse.audit.store.importEntries(entries(12_000, 'bulk'), undefined, {
        tenant: 't-run',
      });
      const started = await server.api('/api/v1/audit-log/verification/runs?tenant=t-run', {
        method: 'POST',
        roles: ['Auditor'],
      });
      expect(started.status, await started.clone().text()).toBe(202);
      const run = (await started.json()) as AuditVerificationRun;
      expect(run).toMatchObject({
        tenant: 't-run',
        state: 'running',
        progress: { checked: 0, total: 12_000 },
      });
      expect(started.headers.get('location')).toBe(`/api/v1/audit-log/verification/runs/${run.id}`);

      const seen: number[] = [];
      let current = run;
      while (current.state === 'running') {
        const response = await server.api(`/api/v1/audit-log/verification/runs/${run.id}`, {
          roles: ['Auditor'],
        });
        expect(response.status).toBe(200);
        current = (await response.json()) as AuditVerificationRun;
        seen.push(current.progress.checked);
      }
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
      expect(current).toMatchObject({
        state: 'done',
        progress: { checked: 12_000, total: 12_000, tenant: 't-run' },
        result: { intact: true, items: [expect.objectContaining({ tenant: 't-run', entries: 12_000 })] },
      });

      // The walk reports after each batch of 5,000, then once the tenant is done.
      const progress: number[] = [];
      await verifyStoredChains(database, current.result!.publicKey, 't-run', (p) => progress.push(p.checked));
      expect(progress).toEqual([5_000, 10_000, 12_000, 12_000]);

      const unknown = await server.api('/api/v1/audit-log/verification/runs/no-such-run', {
        roles: ['Auditor'],
      });
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get('content-type')).toContain('application/problem+json');
      const bad = await server.api('/api/v1/audit-log/verification/runs?tenant=../x', {
        method: 'POST',
        roles: ['Auditor'],
      });
      expect(bad.status).toBe(400);
    },
  );

  it('answers problem+json to a bad tenant and without a token', async () => {
    const bad = await server.api('/api/v1/audit-log/verification?tenant=../x', { roles: ['Auditor'] });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toContain('application/problem+json');
    const anonymous = await server.api('/api/v1/audit-log/verification', { token: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('content-type')).toContain('application/problem+json');
  });

  it(
    'exports a tenant with its chain, verified by the CLI with no data dir, and edits of the file are found',
    { timeout: 120_000 },
    async () => {
      const response = await server.api('/api/v1/audit-log/export?tenant=acme', { roles: ['Auditor'] });
      expect(response.status).toBe(200);
      const text = await response.text();
      const file = join(dir.path, 'acme.ndjson');
      await writeFile(file, text);
      const lines = text.trimEnd().split('\n');
      expect(
        lines.filter((line) => line.startsWith('{"auditChainCheckpoint"')).length,
      ).toBeGreaterThanOrEqual(1);
      expect(JSON.parse(lines.at(-1)!)).toMatchObject({
        auditChain: { version: 2, tenant: 'acme', headSeq: 20, signature: expect.any(String) },
      });

      const ok = await runCli(['audit', 'verify', '--file', file]);
      expect(ok.stdout).toContain('acme: intact (20 entries');
      expect(ok.code).toBe(0);

      const edited = join(dir.path, 'edited.ndjson');
      await writeFile(edited, text.replace('"k":4,', '"k":40,'));
      const editedRun = await runCli(['audit', 'verify', '--file', edited]);
      expect(editedRun.code).toBe(3);
      expect(editedRun.stdout).toMatch(/BROKEN at place 5 .*edited/);

      const shortened = join(dir.path, 'shortened.ndjson');
      await writeFile(shortened, lines.filter((line) => !line.includes('"k":7,')).join('\n'));
      const shortenedRun = await runCli(['audit', 'verify', '--file', shortened]);
      expect(shortenedRun.code).toBe(3);
      expect(shortenedRun.stdout).toMatch(/BROKEN at place 9 .*removed/);

      /** The file's lines tampered with by `change`, verified by the CLI: its exit code and report. */
      const verifyTampered = async (name: string, content: string) => {
        const path = join(dir.path, `${name}.ndjson`);
        await writeFile(path, content);
        const run = await runCli(['audit', 'verify', '--file', path]);
        expect(run.code, run.stdout + run.stderr).toBe(3);
        return run.stdout;
      };
      const placeOf = (line: string) => Number(/"chain":\{"seq":(\d+),/.exec(line)?.[1] ?? 0);
      const renumbered = (line: string, by: number) =>
        line.replace(/"chain":\{"seq":(\d+),/, (_, seq: string) => `"chain":{"seq":${Number(seq) + by},`);

      // Place 8 deleted and every later line moved down a place.
      expect(
        await verifyTampered(
          'renumbered',
          lines
            .filter((line) => placeOf(line) !== 8)
            .map((line) => (placeOf(line) > 8 ? renumbered(line, -1) : line))
            .join('\n'),
        ),
      ).toMatch(/BROKEN at place 8 .*removed\. 1 entry before entry \d+ \(places 8–8\)/);

      // A forged entry at place 10, the lines from 10 on moved up a place.
      const forged = lines
        .find((line) => placeOf(line) === 10)!
        .replace('"userName":"alice"', '"userName":"eve"')
        .replace(/^\{"id":(\d+)/, (_, id: string) => `{"id":${Number(id) + 1_000_000}`);
      expect(
        await verifyTampered(
          'inserted',
          [...lines.map((line) => (placeOf(line) >= 10 ? renumbered(line, 1) : line)), forged].join('\n'),
        ),
      ).toMatch(/BROKEN at place 10 .*inserted/);

      // Places 12 and 13 swapped.
      expect(
        await verifyTampered(
          'reordered',
          lines
            .map((line) =>
              placeOf(line) === 12 ? renumbered(line, 1) : placeOf(line) === 13 ? renumbered(line, -1) : line,
            )
            .join('\n'),
        ),
      ).toMatch(/BROKEN at place 12 .*reordered/);

      // The newest three entries (the chain's tail, the file's first lines) cut: the signed head still says 20.
      expect(await verifyTampered('tail', lines.filter((line) => placeOf(line) < 18).join('\n'))).toMatch(
        /BROKEN at place 18: removed\. The last 3 entries \(places 18–20\) were deleted/,
      );

      // The last entry lines of the file (the oldest entries) cut.
      expect(
        await verifyTampered(
          'oldest',
          lines.filter((line) => placeOf(line) === 0 || placeOf(line) > 3).join('\n'),
        ),
      ).toMatch(/BROKEN at place 4 .*removed.*places 1–3/);

      // The file cut short in the middle of an entry line: its evidence and signed head are gone.
      expect(await verifyTampered('cut', text.slice(0, text.indexOf('"chain":{"seq":10,')))).toMatch(
        /acme: BROKEN at place 11 \(entry \d+\): removed\. 10 entries before place 11/,
      );

      // Another machine's data dir imports the export as it would any NDJSON: the evidence lines are skipped.
      const other = await tempDir();
      try {
        const imported = await runCli([
          'audit',
          'import',
          file,
          '--tenant',
          'acme',
          '--data-dir',
          other.path,
        ]);
        expect(imported.stdout).toContain('20 entries read, 20 added, 0 already present, 0 skipped');
        expect(imported.code).toBe(0);
        const again = await runCli(['audit', 'verify', '--tenant', 'acme', '--data-dir', other.path]);
        expect(again.stdout).toContain('acme: intact (20 entries');
      } finally {
        await other.remove();
      }
      expect((await readFile(file, 'utf8')).length).toBe(text.length);
    },
  );
});

describe('gatehouse audit verify on a data dir', () => {
  it(
    'exits 0 when intact and 3 with the first broken link when an entry was edited',
    { timeout: 120_000 },
    async () => {
      const dir = await tempDir();
      try {
        const server = await startTestServer({ dataDir: dir.path, keepDataDir: true });
        await server.gatehouse.audit.store.importEntries(entries(30), undefined, { tenant: 'acme' });
        await server.close();
        const intact = await runCli(['audit', 'verify', '--progress', '--data-dir', dir.path]);
        expect(intact.stdout).toContain('acme: intact (30 entries');
        // Not a terminal: --progress prints lines, the last at the total (every tenant's entries).
        const progress = intact.stderr.trim().split('\n');
        expect(progress[0]).toMatch(/^Verifying \S+: [\d,]+ of [\d,]+ entries checked$/);
        const [, checked, total] = /([\d,]+) of ([\d,]+) entries/.exec(progress.at(-1)!)!;
        expect(checked).toBe(total);
        expect(Number(total!.replace(/,/g, ''))).toBeGreaterThanOrEqual(30);
        expect(intact.stdout).toMatch(/gatehouse: intact/);
        expect(intact.code).toBe(0);

        const database = await Database.open({
          dataDir: dir.path,
          connectionString: await databaseOfDataDir(dir.path),
          logger: createLogger('silent'),
        });
        await sql`update audit_entries set entry = replace(entry, '"k":12', '"k":13') where tenant = 'acme' and chain_seq = 13`.execute(
          database.db,
        );
        await database.close();
        const broken = await runCli(['audit', 'verify', '--tenant', 'acme', '--data-dir', dir.path]);
        expect(broken.stdout).toMatch(/acme: BROKEN at place 13 \(entry \d+\): edited/);
        expect(broken.stderr).toContain('Tampering found in acme');
        expect(broken.code).toBe(3);
      } finally {
        await dir.remove();
      }
    },
  );

  it(
    'chains the entries of a data dir written before the chain when it is next opened',
    { timeout: 120_000 },
    async () => {
      const dir = await tempDir();
      try {
        const server = await startTestServer({ dataDir: dir.path, keepDataDir: true });
        await server.gatehouse.audit.store.importEntries(entries(6_000), undefined, { tenant: 'acme' });
        await server.close();
        // What migration 0006 leaves in an upgraded database: rows without links, the backlog to do.
        const database = await Database.open({
          dataDir: dir.path,
          connectionString: await databaseOfDataDir(dir.path),
          logger: createLogger('silent'),
        });
        await database.db.updateTable('audit_entries').set({ chain_seq: null, chain_hash: null }).execute();
        await database.db.deleteFrom('audit_chain_heads').execute();
        await database.db.deleteFrom('audit_chain_checkpoints').execute();
        await database.db
          .updateTable('meta')
          .set({ value: 'pending' })
          .where('key', '=', 'audit.chain.backlog')
          .execute();
        await database.close();

        const verified = await runCli(['audit', 'verify', '--tenant', 'acme', '--data-dir', dir.path]);
        expect(verified.stdout).toContain('acme: intact (6000 entries');
        expect(verified.code).toBe(0);
      } finally {
        await dir.remove();
      }
    },
  );
});
