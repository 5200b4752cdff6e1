import { appendFile, mkdtemp, readdir, rm, stat, truncate, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SegmentLog, type SegmentLogOptions } from '../../../src-server/core/storage/index.js';

interface Warning {
  message: string;
  details: Record<string, unknown>;
}

let dir: string;
let warnings: Warning[];
const logs: SegmentLog[] = [];

async function openLog(options: Partial<SegmentLogOptions> = {}): Promise<SegmentLog> {
  const log = await SegmentLog.open({
    dir,
    onWarning: (message, details) => warnings.push({ message, details }),
    ...options,
  });
  logs.push(log);
  return log;
}

function record(i: number, size = 40): Buffer {
  return Buffer.from(`record-${i}-`.padEnd(size, 'x'));
}

async function scanAll(log: SegmentLog): Promise<string[]> {
  const found: string[] = [];
  for await (const { payload } of log.scan()) found.push(payload.toString());
  return found;
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'gatehouse-log-'));
  warnings = [];
});

afterEach(async () => {
  for (const log of logs.splice(0)) await log.close();
  await rm(dir, { recursive: true, force: true });
});

describe('SegmentLog', () => {
  it('appends concurrently (group commit), reads back by location, survives reopen', async () => {
    const log = await openLog();
    const locations = await Promise.all(Array.from({ length: 200 }, (_, i) => log.append(record(i))));
    // Ordered as called: each append gets the next position.
    for (let i = 1; i < locations.length; i++)
      expect(locations[i]!.offset).toBeGreaterThan(locations[i - 1]!.offset);
    const read = await log.readRecords(locations);
    expect(read.map(String)).toEqual(Array.from({ length: 200 }, (_, i) => record(i).toString()));
    await log.close();
    const reopened = await openLog();
    expect(await scanAll(reopened)).toHaveLength(200);
    expect((await reopened.readRecord(locations[123]!)).toString()).toBe(record(123).toString());
    expect(warnings).toEqual([]);
  });

  it('runs commit callbacks in log order before the promise resolves', async () => {
    const log = await openLog();
    const committed: number[] = [];
    const done = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        log.append(record(i), () => committed.push(i)).then(() => expect(committed).toContain(i)),
      ),
    );
    expect(done).toHaveLength(50);
    expect(committed).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it('rolls segments at the size limit, including inside one bulk append', async () => {
    const log = await openLog({ segmentMaxBytes: 1000 });
    const locations = await log.appendBulk(Array.from({ length: 100 }, (_, i) => record(i, 92)));
    expect(new Set(locations.map((l) => l.segment)).size).toBe(10);
    for (const segment of log.segments()) expect(segment.size).toBeLessThanOrEqual(1000);
    expect(log.segments().filter((s) => !s.sealed)).toHaveLength(1);
    expect((await log.readRecords(locations)).map(String)).toEqual(
      Array.from({ length: 100 }, (_, i) => record(i, 92).toString()),
    );
    await log.close();
    const reopened = await openLog({ segmentMaxBytes: 1000 });
    expect(await scanAll(reopened)).toHaveLength(100);
  });

  it('builds frames in a batch without per-record buffers', async () => {
    const log = await openLog();
    const batch = log.createBatch();
    batch.addRecord(Buffer.from([1, 2]), 'héllo');
    batch.addPayload(Buffer.from('plain'));
    const locations = await log.appendBatch(batch);
    const [first, second] = await log.readRecords(locations);
    expect([...first!.subarray(0, 2)]).toEqual([1, 2]);
    expect(first!.subarray(2).toString()).toBe('héllo');
    expect(second!.toString()).toBe('plain');
  });

  it('truncates a torn record at the end and reports it', async () => {
    const log = await openLog();
    await Promise.all(Array.from({ length: 10 }, (_, i) => log.append(record(i))));
    await log.close();
    const [segmentFile] = (await readdir(path.join(dir))).filter((name) => name.endsWith('.seg'));
    const file = path.join(dir, segmentFile!);
    const { size } = await stat(file);
    await truncate(file, size - 7); // the last record loses its end
    const reopened = await openLog();
    expect((await scanAll(reopened)).map((r) => r.slice(0, 9))).toEqual(
      Array.from({ length: 9 }, (_, i) => `record-${i}-`.slice(0, 9)),
    );
    expect(warnings.map((w) => w.message)).toEqual(['Truncated an incomplete record at the end of the log']);
    // Appending after recovery continues from the valid end.
    await reopened.append(record(99));
    await reopened.close();
    warnings = [];
    const again = await openLog();
    expect(await scanAll(again)).toHaveLength(10);
    expect(warnings).toEqual([]);
  });

  it('truncates garbage and zero-filled tails', async () => {
    const log = await openLog();
    await Promise.all(Array.from({ length: 5 }, (_, i) => log.append(record(i))));
    await log.close();
    const file = path.join(dir, '00000001.g0.seg');
    await appendFile(file, Buffer.from('garbage that is not a frame at all'));
    await appendFile(file, Buffer.alloc(4096));
    const reopened = await openLog();
    expect(await scanAll(reopened)).toHaveLength(5);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.details).toMatchObject({ droppedBytes: 34 + 4096 });
  });

  it('skips a corrupt record in the middle and keeps the ones after it', async () => {
    const log = await openLog();
    const locations = await Promise.all(Array.from({ length: 5 }, (_, i) => log.append(record(i))));
    await log.close();
    const file = path.join(dir, '00000001.g0.seg');
    const { readFile } = await import('node:fs/promises');
    const bytes = await readFile(file);
    const inside = locations[2]!.offset + 12; // a byte of record 2's payload
    bytes[inside] = bytes[inside]! ^ 0xff;
    await writeFile(file, bytes);
    const reopened = await openLog();
    const found = await scanAll(reopened);
    expect(found.map((r) => r.split('-')[1])).toEqual(['0', '1', '3', '4']);
    expect(warnings.some((w) => w.message === 'Skipped a corrupt region of a segment')).toBe(true);
    await expect(reopened.readRecord(locations[2]!)).rejects.toThrow(/unreadable/);
  });

  it('rewrites a sealed segment keeping, replacing and dropping records', async () => {
    const log = await openLog({ segmentMaxBytes: 500 });
    const locations = await log.appendBulk(Array.from({ length: 20 }, (_, i) => record(i)));
    const first = locations[0]!.segment;
    const inFirst = locations.filter((l) => l.segment === first);
    let swapped: { oldOffsets: number[]; newOffsets: number[] } | undefined;
    await log.rewriteSegment(
      first,
      (payload) => {
        const i = Number(payload.toString().split('-')[1]);
        if (i % 2 === 1) return null;
        return i === 0 ? Buffer.from('replaced') : payload;
      },
      (relocations) => {
        swapped = relocations;
      },
    );
    expect(swapped!.oldOffsets).toEqual(inFirst.filter((_, i) => i % 2 === 0).map((l) => l.offset));
    const moved = swapped!.newOffsets.map((offset, i) => ({
      segment: first,
      offset,
      size: i === 0 ? 8 : 40,
    }));
    const read = (await log.readRecords(moved)).map(String);
    expect(read[0]).toBe('replaced');
    expect(read[1]).toBe(record(2).toString());
    expect(log.segments()[0]!.generation).toBe(1);
    await log.close();
    const reopened = await openLog({ segmentMaxBytes: 500 });
    expect(await scanAll(reopened)).toHaveLength(20 - Math.ceil(inFirst.length / 2));
    expect((await readdir(dir)).filter((n) => n.startsWith('00000001'))).toEqual(['00000001.g1.seg']);
  });

  it('deletes a segment when nothing is kept, and refuses to rewrite the active one', async () => {
    const log = await openLog({ segmentMaxBytes: 500 });
    const locations = await log.appendBulk(Array.from({ length: 20 }, (_, i) => record(i)));
    const active = locations.at(-1)!.segment;
    await expect(
      log.rewriteSegment(
        active,
        (p) => p,
        () => undefined,
      ),
    ).rejects.toThrow(/active segment/);
    let deleted = false;
    await log.rewriteSegment(
      1,
      () => null,
      (_, wasDeleted) => {
        deleted = wasDeleted;
      },
    );
    expect(deleted).toBe(true);
    expect(log.segments().map((s) => s.seq)).not.toContain(1);
    await expect(log.readRecord(locations[0]!)).rejects.toThrow(/does not exist/);
  });

  it('cleans up after an interrupted compaction', async () => {
    const log = await openLog({ segmentMaxBytes: 500 });
    await log.appendBulk(Array.from({ length: 20 }, (_, i) => record(i)));
    await log.close();
    // A finished rewrite whose old generation was not removed yet, and a half-written temporary file.
    const { copyFile } = await import('node:fs/promises');
    await copyFile(path.join(dir, '00000001.g0.seg'), path.join(dir, '00000001.g1.seg'));
    await writeFile(path.join(dir, '00000002.g1.seg.tmp'), 'partial');
    const reopened = await openLog({ segmentMaxBytes: 500 });
    expect(await scanAll(reopened)).toHaveLength(20);
    const names = await readdir(dir);
    expect(names).not.toContain('00000001.g0.seg');
    expect(names).not.toContain('00000002.g1.seg.tmp');
    expect(warnings.map((w) => w.message).sort()).toEqual([
      'Removed a segment generation superseded by a completed compaction',
      'Removed a temporary segment file left by an interrupted compaction',
    ]);
  });

  it('rejects appends after close and empty or oversized records', async () => {
    const log = await openLog({ maxRecordBytes: 100 });
    await expect(log.append(Buffer.alloc(0))).rejects.toThrow(/empty/);
    await expect(log.append(Buffer.alloc(101))).rejects.toThrow(/exceeds/);
    await log.close();
    await expect(log.append(record(1))).rejects.toThrow(/closed/);
  });
});
