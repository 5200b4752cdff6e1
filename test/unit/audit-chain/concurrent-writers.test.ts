import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyStoredChain } from '../../../src-server/core/audit/chain/chain-verify-store.js';
import { ENGINES } from '../../helpers/test-database.js';
import { BASE_MS, entryAt, StoreFixture } from '../audit-store/helpers.js';

/**
 * Two stores on one database — two instances of a team on PostgreSQL — append and import into the same tenants at
 * once: each chain stays one unbroken sequence of places. (A SQLite file has one writing process, the data-dir
 * lock's holder.)
 */
describe.each(ENGINES.filter((engine) => engine === 'postgres'))(
  'the chain under concurrent writers on %s',
  (engine) => {
    let fixture: StoreFixture;
    beforeEach(async () => {
      fixture = await StoreFixture.create(engine);
    });
    afterEach(async () => {
      await fixture.dispose();
    });

    it('gives every entry of a tenant its own place, in one chain that verifies', async () => {
      const first = await fixture.openStore();
      const second = await fixture.openStore();
      const appends = (store: typeof first, who: string) =>
        Array.from({ length: 60 }, (_, k) => store.append(entryAt(BASE_MS + k, { userName: `${who}-${k}` })));
      const imports = (store: typeof first, who: string) =>
        store.importEntries(
          Array.from({ length: 300 }, (_, k) =>
            entryAt(BASE_MS + 10_000 + k, { userName: `${who}-import-${k}` }),
          ),
          undefined,
          { tenant: 'acme' },
        );
      await Promise.all([
        ...appends(first, 'one'),
        ...appends(second, 'two'),
        imports(first, 'one'),
        imports(second, 'two'),
      ]);
      const database = await fixture.openDatabase();
      try {
        const own = await verifyStoredChain(database, 'gatehouse', '');
        expect(own).toMatchObject({ intact: true, entries: 120 });
        const acme = await verifyStoredChain(database, 'acme', '');
        expect(acme).toMatchObject({ intact: true, entries: 600 });
      } finally {
        await database.close();
      }
    });
  },
);
