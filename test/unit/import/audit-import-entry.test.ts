import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeEntry } from '../../../src-server/core/audit/normalize-entry.js';
import { normalizeImportEntry } from '../../../src-server/control/audit/import/normalize-import-entry.js';

const record = (extra: Record<string, unknown>) => ({
  actionName: 'Role.Modify',
  userName: 'erin',
  timestamp: '2026-03-02T00:00:00.000Z',
  parameters: {},
  ...extra,
});

describe('an imported record keeps the id it had at its source', () => {
  it('takes the record id, or the sourceId an earlier import gave it', () => {
    expect(normalizeImportEntry(record({ id: 29 }))).toMatchObject({ ok: true, entry: { sourceId: 29 } });
    expect(normalizeImportEntry(record({ id: 7, sourceId: 29 }))).toMatchObject({
      ok: true,
      entry: { sourceId: 29 },
    });
  });

  it('leaves out an id that is not an integer instead of refusing the record', () => {
    for (const id of ['29', 2.5, null, { n: 1 }, 2 ** 60]) {
      const result = normalizeImportEntry(record({ id }));
      expect(result.ok).toBe(true);
      if (result.ok) expect(result.entry).not.toHaveProperty('sourceId');
    }
  });

  it('the store refuses a sourceId that is not an integer', () => {
    expect(() => normalizeEntry({ ...record({ sourceId: 'x' }), category: 'general' })).toThrow(
      /sourceId must be an integer/,
    );
  });

  it('never throws on any record, and what it accepts the store accepts with the same source id (fuzzed)', () => {
    const id = fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(undefined), fc.constant(null));
    fc.assert(
      fc.property(
        fc.record({ id, sourceId: id }, { requiredKeys: [] }),
        fc.dictionary(fc.string(), fc.jsonValue()),
        (ids, noise) => {
          const raw = { ...noise, ...record({}), ...ids };
          const result = normalizeImportEntry(raw);
          expect(result.ok).toBe(true);
          if (!result.ok) return;
          const stored = normalizeEntry(result.entry).entry;
          const expected = [ids.sourceId ?? ids.id].find((value) => Number.isSafeInteger(value));
          expect(stored.sourceId).toBe(expected);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('never throws on arbitrary JSON (fuzzed)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const result = normalizeImportEntry(value);
        if (result.ok) expect(() => normalizeEntry(result.entry)).not.toThrow();
      }),
      { numRuns: 500 },
    );
  });
});
