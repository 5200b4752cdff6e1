import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AuditPageShapeError,
  readAuditPage,
} from '../../../src-server/control/audit/sync/read-audit-page.js';
import { backoffMs, retryAfterMs } from '../../../src-server/control/audit/sync/backoff.js';

const item = {
  actionName: 'Process.Deploy',
  userName: 'alice',
  timestamp: '2026-03-01T10:00:00.000Z',
  parameters: { a: 1 },
};

function recase(name: string, mode: number): string {
  if (mode === 1) return name.toUpperCase();
  if (mode === 2) return name[0]!.toUpperCase() + name.slice(1);
  return name;
}

describe('readAuditPage', () => {
  it('reads both shapes the platform has answered, member names in any case', () => {
    for (const mode of [0, 1, 2]) {
      const page = readAuditPage({
        [recase('items', mode)]: [
          Object.fromEntries(Object.entries(item).map(([k, v]) => [recase(k, mode), v])),
        ],
        [recase('totalCount', mode)]: 7,
      });
      expect(page).toMatchObject({ itemCount: 1, totalCount: 7, skippedCount: 0 });
      expect(page.entries[0]).toMatchObject({
        actionName: 'Process.Deploy',
        userName: 'alice',
        parameters: { a: 1 },
      });
    }
    const older = readAuditPage({
      Data: [
        {
          Action: 'Role.Modify',
          User: 'bob',
          TimestampUtc: '2026-03-01T10:00:00',
          Parameters: '{"x":2}',
          Id: 29,
        },
      ],
    });
    expect(older.totalCount).toBeUndefined();
    expect(older.entries[0]).toMatchObject({
      actionName: 'Role.Modify',
      userName: 'bob',
      timestamp: '2026-03-01T10:00:00.000Z',
      parameters: { x: 2 },
      sourceId: 29,
    });
  });

  it('skips items that are not entries and refuses bodies that are not pages', () => {
    const page = readAuditPage({ items: [item, { userName: 'x' }, 3] });
    expect(page).toMatchObject({ itemCount: 3, skippedCount: 2 });
    expect(page.skipped.map((s) => s.index)).toEqual([1, 2]);
    for (const body of [null, 3, 'x', [], { items: 'no' }, { other: [] }])
      expect(() => readAuditPage(body)).toThrow(AuditPageShapeError);
  });

  it('never throws anything but its shape error, whatever the JSON (fuzzed)', () => {
    const anyItem = fc.oneof(
      fc.jsonValue(),
      fc.record(
        {
          actionName: fc.oneof(fc.string(), fc.constant('A.B'), fc.jsonValue()),
          userName: fc.oneof(fc.string(), fc.jsonValue()),
          timestamp: fc.oneof(
            fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
            fc.string(),
            fc.jsonValue(),
          ),
          parameters: fc.oneof(fc.jsonValue(), fc.json()),
          id: fc.jsonValue(),
        },
        { requiredKeys: [] },
      ),
    );
    const body = fc.oneof(
      fc.jsonValue(),
      fc.record({ items: fc.array(anyItem), totalCount: fc.jsonValue() }, { requiredKeys: [] }),
      fc.record({ DATA: fc.array(anyItem) }),
    );
    fc.assert(
      fc.property(body, (value) => {
        try {
          const page = readAuditPage(value);
          expect(page.entries.length + page.skippedCount).toBe(page.itemCount);
          if (page.totalCount !== undefined) expect(Number.isSafeInteger(page.totalCount)).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(AuditPageShapeError);
        }
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('backoff', () => {
  it('reads Retry-After as seconds or a date, capped, and backs off exponentially', () => {
    const now = Date.parse('2026-03-01T00:00:00Z');
    expect(retryAfterMs('3', now, 60_000)).toBe(3_000);
    expect(retryAfterMs('3600', now, 60_000)).toBe(60_000);
    expect(retryAfterMs('Sun, 01 Mar 2026 00:00:05 GMT', now, 60_000)).toBe(5_000);
    expect(retryAfterMs(null, now, 60_000)).toBeUndefined();
    expect(retryAfterMs('soon', now, 60_000)).toBeUndefined();
    expect(backoffMs(0, 500, 60_000, () => 1)).toBe(500);
    expect(backoffMs(3, 500, 60_000, () => 1)).toBe(4_000);
    expect(backoffMs(20, 500, 60_000, () => 0)).toBe(30_000);
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 0, max: 2 ** 40 }), (header, at) => {
        const wait = retryAfterMs(header, at, 60_000);
        if (wait !== undefined) expect(wait >= 0 && wait <= 60_000).toBe(true);
      }),
    );
  });
});
