import { appendFile, cp, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { allIds, BASE_MS, DAY_MS, entryAt, StoreFixture } from './helpers.js';

let fixture: StoreFixture;
beforeEach(async () => {
  fixture = await StoreFixture.create();
});
afterEach(async () => {
  await fixture.dispose();
});

const snapshotFile = (): string => path.join(fixture.dir, 'index.snapshot');
const segmentFiles = async (): Promise<string[]> =>
  (await readdir(path.join(fixture.dir, 'log'))).filter((name) => name.endsWith('.seg')).sort();

/** Copies the directory as it is on disk now: what a restart after a crash would find (minus the page cache). */
async function crashImage(): Promise<string> {
  const image = path.join(await fixture.scratchDir(), 'image');
  await cp(fixture.dir, image, { recursive: true });
  return image;
}

describe('durability', () => {
  it('sees an acknowledged append after a restart without close, snapshot or not', async () => {
    const store = await fixture.openStore();
    await store.append(entryAt(BASE_MS));
    await store.flush(); // snapshot covers entry 1 ...
    await Promise.all([store.append(entryAt(BASE_MS + 1)), store.append(entryAt(BASE_MS + 2))]); // ... not these
    const image = await crashImage();
    const reopened = await fixture.openStore({ dir: image });
    expect(await allIds(reopened)).toEqual([3, 2, 1]);
    expect((await reopened.append(entryAt(BASE_MS + 3))).id).toBe(4);
    expect(fixture.warnings).toEqual([]);
    await reopened.close();
  });

  it('keeps all complete records when the tail is torn, and reports it', async () => {
    const store = await fixture.openStore();
    for (let i = 0; i < 20; i++) await store.append(entryAt(BASE_MS + i));
    await store.close();
    const [segment] = await segmentFiles();
    const file = path.join(fixture.dir, 'log', segment!);
    await truncate(file, (await stat(file)).size - 5);
    await appendFile(file, Buffer.from([0xde, 0xad, 0xbe, 0xef, 1, 2, 3]));
    const reopened = await fixture.openStore();
    expect(await allIds(reopened)).toEqual(Array.from({ length: 19 }, (_, i) => 19 - i));
    const messages = fixture.warnings.map((w) => w.message);
    expect(messages).toContain('Truncated an incomplete record at the end of the log');
    // The snapshot covered the lost record, so it no longer matches: the index is rebuilt.
    expect(messages.some((m) => m.includes('does not match the log'))).toBe(true);
    expect((await reopened.append(entryAt(BASE_MS + 100))).id).toBe(20);
  });

  it('ignores garbage after the last record without losing the snapshot', async () => {
    const store = await fixture.openStore();
    for (let i = 0; i < 5; i++) await store.append(entryAt(BASE_MS + i));
    await store.close();
    const [segment] = await segmentFiles();
    await appendFile(path.join(fixture.dir, 'log', segment!), Buffer.alloc(100, 0xab));
    const reopened = await fixture.openStore();
    expect(await reopened.count()).toBe(5);
    expect(fixture.warnings.map((w) => w.message)).toEqual([
      'Truncated an incomplete record at the end of the log',
    ]);
  });

  it('rebuilds the index when the snapshot is missing or corrupt', async () => {
    const store = await fixture.openStore({ segmentMaxBytes: 4096 });
    await store.importEntries(
      Array.from({ length: 300 }, (_, i) => entryAt(BASE_MS + (i % 17) * 1000, { userName: `u${i % 5}` })),
    );
    const expected = await store.query({ pageNumber: 2, pageSize: 25, userName: 'U3' });
    await store.close();

    await rm(snapshotFile());
    const rebuilt = await fixture.openStore({ segmentMaxBytes: 4096 });
    expect(await rebuilt.query({ pageNumber: 2, pageSize: 25, userName: 'U3' })).toEqual(expected);
    expect(fixture.warnings.map((w) => w.message)).toEqual([
      'The audit index snapshot is missing; rebuilding the index from the log',
      'Rebuilt the audit index from the log',
    ]);
    await rebuilt.close();

    const bytes = await readFile(snapshotFile());
    const middle = Math.floor(bytes.length / 2);
    bytes[middle] = bytes[middle]! ^ 0x55;
    await writeFile(snapshotFile(), bytes);
    fixture.warnings.length = 0;
    const again = await fixture.openStore({ segmentMaxBytes: 4096 });
    expect(await again.query({ pageNumber: 2, pageSize: 25, userName: 'U3' })).toEqual(expected);
    expect(fixture.warnings[0]).toMatchObject({
      message: 'The audit index snapshot is unreadable; rebuilding the index from the log',
      details: { reason: 'snapshot checksum mismatch' },
    });
  });

  it('does not trust a snapshot taken before a compaction', async () => {
    const store = await fixture.openStore({ segmentMaxBytes: 2048 });
    await store.importEntries(
      Array.from({ length: 200 }, (_, i) =>
        entryAt(BASE_MS - 100 * DAY_MS + i * 60_000, { parameters: { i } }),
      ),
    );
    await store.importEntries(
      Array.from({ length: 20 }, (_, i) => entryAt(BASE_MS + i, { parameters: { i } })),
    );
    await store.flush();
    const oldSnapshot = await readFile(snapshotFile());
    const { removed } = await store.applyRetention({
      now: BASE_MS,
      maxAgeMs: 60 * DAY_MS,
      agentWindow: 1,
      isResourceLive: () => false,
    });
    expect(removed).toBe(200);
    await store.close();
    await writeFile(snapshotFile(), oldSnapshot);
    const reopened = await fixture.openStore({ segmentMaxBytes: 2048 });
    expect(await reopened.count()).toBe(20);
    expect(fixture.warnings.some((w) => w.message.includes('does not match the log'))).toBe(true);
  });

  it('takes periodic snapshots so that a restart replays only a short tail', async () => {
    const store = await fixture.openStore({ snapshotEveryRecords: 50 });
    for (let i = 0; i < 120; i++) await store.append(entryAt(BASE_MS + i));
    const deadline = Date.now() + 5000;
    while (!(await stat(snapshotFile()).catch(() => undefined)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect((await stat(snapshotFile())).size).toBeGreaterThan(0);
    const image = await crashImage();
    const reopened = await fixture.openStore({ dir: image });
    expect(await reopened.count()).toBe(120);
    expect(fixture.warnings).toEqual([]);
    await reopened.close();
  });
});
