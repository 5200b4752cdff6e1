import { randomUUID } from 'node:crypto';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readAsOf } from '../../../src-server/core/config-store/config-rows.js';
import { rememberJson } from '../../../src-server/core/json/known-json.js';
import { assembleConfig } from '../../../src-server/core/config-store/config-records.js';
import { migrationsFor } from '../../../src-server/core/storage/migrations/index.js';
import { ConfigStore } from '../../../src-server/core/config-store/config-store.js';
import { createLogger } from '../../../src-server/core/logging/logger.js';
import type { ApiRecord, PolicyRecord } from '../../../src-server/core/model/config-model.js';
import { Database } from '../../../src-server/core/storage/database.js';
import { createTestDatabase, ENGINES } from '../../helpers/test-database.js';
import { tempDir } from '../../helpers/temp-dir.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function fixture(engine: (typeof ENGINES)[number]) {
  const dir = await tempDir();
  cleanups.push(dir.remove);
  const connectionString = await createTestDatabase(engine);
  const open = async () => {
    const database = await Database.open({
      dataDir: dir.path,
      connectionString,
      logger: createLogger('silent'),
    });
    cleanups.push(() => database.close());
    return { database, store: await ConfigStore.open(database) };
  };
  return { open, dataDir: dir.path, connectionString };
}

/** An API whose record is large, as an imported description with many operations makes it. */
function bigApi(operations: number): ApiRecord {
  const at = new Date().toISOString();
  return {
    id: randomUUID(),
    name: 'Big',
    version: '1',
    specVersion: '3.0',
    basePath: '/big',
    agentGroupIds: ['default'],
    documentFile: 'big.json',
    operations: Array.from({ length: operations }, (_, i) => ({
      key: `GET /items/${i}`,
      method: 'GET',
      path: `/items/${i}`,
      pathParameters: [],
    })),
    revision: 1,
    importedAt: at,
    updatedAt: at,
  };
}

function policy(name: string): PolicyRecord {
  return { id: randomUUID(), name, agentGroupId: 'default' } as PolicyRecord;
}

/** The rows a commit wrote, as `kind:key`. */
async function rowsOfCommit(database: Database, commitId: number): Promise<string[]> {
  const rows = await database.db
    .selectFrom('config_records')
    .select(['kind', 'key'])
    .where('commit_id', '=', commitId)
    .execute();
  return rows.map((row) => `${row.kind}:${row.key}`).sort();
}

describe.each(ENGINES)('the configuration store on %s', (engine) => {
  it('writes only the records a change touches: a small change leaves a large API alone', async () => {
    const { open } = await fixture(engine);
    const { database, store } = await open();
    const api = bigApi(20_000);
    await store.update((data) => {
      data.apis.push(api);
    });
    const apiCommit = store.revision;
    expect(await rowsOfCommit(database, apiCommit)).toEqual([`apis:${api.id}`]);
    const apiBefore = store.data.apis[0];

    const added = policy('p1');
    await store.update((data) => {
      data.policies.push(added);
    });
    expect(await rowsOfCommit(database, store.revision)).toEqual([`policies:${added.id}`]);
    // The untouched record is the same object, and its stored row is still the one the import wrote.
    expect(store.data.apis[0]).toBe(apiBefore);
    const apiRows = await database.db
      .selectFrom('config_records')
      .select(['commit_id', 'valid_to'])
      .where('key', '=', api.id)
      .execute();
    expect(apiRows).toEqual([{ commit_id: apiCommit, valid_to: null }]);

    await store.update((data) => {
      data.policies[0]!.name = 'renamed';
    });
    expect(await rowsOfCommit(database, store.revision)).toEqual([`policies:${added.id}`]);
    const versions = await database.db
      .selectFrom('config_records')
      .select(['data', 'valid_to'])
      .where('key', '=', added.id)
      .orderBy('commit_id')
      .execute();
    expect(
      versions.map((row) => [(JSON.parse(row.data) as PolicyRecord).name, row.valid_to === null]),
    ).toEqual([
      ['p1', false],
      ['renamed', true],
    ]);
  });

  it('commits nothing for a change that changes nothing, and nothing at all when the mutator throws', async () => {
    const { open } = await fixture(engine);
    const { store } = await open();
    const revision = store.revision;
    const data = store.data;
    let told = 0;
    store.onChange(() => told++);
    const sameName = store.data.tenant.name;
    await store.update((draft) => {
      draft.tenant.name = sameName;
    });
    await expect(
      store.update((draft) => {
        draft.policies.push(policy('never'));
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(store.revision).toBe(revision);
    expect(store.data).toBe(data);
    expect(store.data.policies).toEqual([]);
    expect(told).toBe(0);
  });

  it('hands back records of the change readable after it, and leaves earlier reads as they were', async () => {
    const { open } = await fixture(engine);
    const { store } = await open();
    const before = store.data;
    const created = await store.update((data) => {
      data.policies.push(policy('a'));
      return { policy: data.policies[0]!, all: data.policies };
    });
    expect(created.policy.name).toBe('a');
    expect(created.all.map((p) => p.name)).toEqual(['a']);
    expect(before.policies).toEqual([]);
  });

  it('reads back the same configuration after a restart, collections in the order records were added', async () => {
    const { open } = await fixture(engine);
    const first = await open();
    await first.store.update((data) => {
      data.policies.push(policy('b'), policy('a'), policy('c'));
    });
    await first.store.update((data) => {
      data.policies = data.policies.filter((p) => p.name !== 'a');
      data.policies[0]!.name = 'b2';
      data.policies.push(policy('d'));
    });
    const expected = JSON.stringify(first.store.data);
    await first.store.close();
    await first.database.close();
    const second = await open();
    expect(JSON.stringify(second.store.data)).toBe(expected);
    expect(second.store.data.policies.map((p) => p.name)).toEqual(['b2', 'c', 'd']);
  });

  it('stores a large record compressed and reads it back, after a restart and as of an earlier moment', async () => {
    const { open } = await fixture(engine);
    const first = await open();
    const small = policy('small');
    const big = bigApi(20_000);
    // As an import hands them over: frozen, with their JSON made elsewhere (UTF-8).
    const operations = Object.freeze(big.operations);
    const operationsJson = JSON.stringify(operations);
    rememberJson(operations, Buffer.from(operationsJson));
    await first.store.update((data) => {
      data.policies.push(small);
      data.apis.push({ ...big, operations: operations as ApiRecord['operations'] });
    });
    const importedAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await first.store.update((data) => {
      data.apis[0]!.name = 'Renamed';
    });
    const rows = await first.database.db
      .selectFrom('config_records')
      .select(['key', 'data', 'data_deflated', 'valid_to'])
      .where('key', 'in', [small.id, big.id])
      .orderBy('commit_id')
      .execute();
    const stored = (key: string) => rows.filter((row) => row.key === key);
    expect(stored(small.id).map((row) => row.data_deflated)).toEqual([null]);
    expect(JSON.parse(stored(small.id)[0]!.data)).toEqual(small);
    for (const row of stored(big.id)) {
      expect(row.data).toBe('');
      // Compressed, to far less than its JSON.
      expect(row.data_deflated!.length).toBeLessThan(operationsJson.length / 5);
    }
    expect(stored(big.id).map((row) => row.valid_to === null)).toEqual([false, true]);

    const expected = JSON.stringify(first.store.data);
    await first.store.close();
    await first.database.close();
    const second = await open();
    expect(JSON.stringify(second.store.data)).toBe(expected);
    expect(second.store.data.apis[0]).toEqual({ ...big, name: 'Renamed', updatedAt: big.updatedAt });

    const asOfImport = assembleConfig(await readAsOf(second.database.db, importedAt))!;
    expect(asOfImport.apis).toEqual([big]);
    expect(asOfImport.policies).toEqual([small]);
  });

  it('keeps the versions a restore needs and drops those the window no longer reaches', async () => {
    const { open } = await fixture(engine);
    const { database, store } = await open();
    await store.update((data) => {
      data.policies.push(policy('old'));
    });
    const cutoff = Date.now() + 1;
    await new Promise((resolve) => setTimeout(resolve, 5));
    await store.update((data) => {
      data.policies[0]!.name = 'new';
    });
    const count = async () =>
      (await database.db.selectFrom('config_records').select('key').where('kind', '=', 'policies').execute())
        .length;
    expect(await count()).toBe(2);
    await store.prune(cutoff);
    expect(await count()).toBe(2);
    await store.prune(Date.now() + 1);
    expect(await count()).toBe(1);
    expect(store.data.policies[0]!.name).toBe('new');
  });
});

describe('two instances sharing a PostgreSQL database', () => {
  it('lose no write of each other: a change applies to what the other committed', async () => {
    const { open } = await fixture('postgres');
    const a = await open();
    const b = await open();
    await a.store.update((data) => {
      data.policies.push(policy('from a'));
    });
    await b.store.update((data) => {
      data.policies.push(policy('from b'));
    });
    await a.store.update((data) => {
      data.tenant.name = 'renamed by a';
    });
    const c = await open();
    expect(c.store.data.policies.map((p) => p.name)).toEqual(['from a', 'from b']);
    expect(c.store.data.tenant.name).toBe('renamed by a');
  });
});

describe.each(ENGINES)('a database of the first schema on %s', (engine) => {
  it('has its configuration revisions carried over as record versions, history included', async () => {
    const { open, dataDir, connectionString } = await fixture(engine);
    // The schema as 0001 left it, holding two revisions written the way they were then: whole documents.
    const old = new Kysely<{ config_revisions: { id: number; committed_at: number; document: string } }>({
      dialect: connectionString
        ? new PostgresDialect({ pool: new pg.Pool({ connectionString }) })
        : new SqliteDialect({ database: new BetterSqlite3(join(dataDir, 'gatehouse.db')) }),
    });
    const migrator = new Migrator({
      db: old,
      provider: migrationsFor(engine),
      migrationTableName: 'schema_migrations',
      migrationLockTableName: 'schema_migrations_lock',
    });
    expect((await migrator.migrateTo('0001-initial')).error).toBeUndefined();
    const kept = policy('kept');
    const renamed = policy('first name');
    const document = (policies: PolicyRecord[]) =>
      JSON.stringify({
        schemaVersion: 3,
        tenant: { id: 'tenant-1', name: 'Local tenant', createdAt: '2026-01-01T00:00:00.000Z' },
        appRegistrations: [],
        signInTickets: [],
        environments: [],
        agentGroups: [],
        environmentVariables: [],
        apis: [],
        passthroughs: [],
        policies,
        apiKeys: [],
      });
    const t1 = Date.now() - 60_000;
    const t2 = t1 + 1_000;
    await old
      .insertInto('config_revisions')
      .values([
        { id: 1, committed_at: t1, document: document([renamed, kept]) },
        { id: 2, committed_at: t2, document: document([{ ...renamed, name: 'second name' }, kept]) },
      ])
      .execute();
    await old.destroy();

    const { database, store } = await open();
    expect(store.data.tenant.id).toBe('tenant-1');
    expect(store.data.policies.map((p) => p.name)).toEqual(['second name', 'kept']);
    const asOfFirst = assembleConfig(await readAsOf(database.db, t1));
    expect(asOfFirst?.policies.map((p) => p.name)).toEqual(['first name', 'kept']);
    const tables = (await database.db.introspection.getTables()).map((table) => table.name);
    expect(tables).not.toContain('config_revisions');
    // The next commit continues the revisions' numbering.
    await store.update((data) => {
      data.policies.push(policy('new'));
    });
    expect(store.revision).toBe(3);
  });
});
