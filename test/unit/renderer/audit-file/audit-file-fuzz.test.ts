import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  csvHeader,
  formatCsvRow,
  formatNdjsonRow,
} from '../../../../src-server/control/audit/audit-export-format.js';
import type { AuditEntry } from '../../../../src-server/core/audit/audit-entry.js';
import { AuditFileParser } from '../../../../src-renderer/audit-file/audit-file-parser.js';

/** Text the export may write and the CSV export reads back the same (see "lossy" below). */
const text = fc.string({ unit: 'binary', maxLength: 30 });
// The CSV export guards a cell starting with = + - @ tab or CR with a leading quote; a value that already starts
// with a quote and one of those reads back without it. That is the export format's own ambiguity.
const csvSafe = text.filter((value) => !/^'[=+\-@\t\r]/.test(value));

const json = fc.jsonValue().map((value) => JSON.parse(JSON.stringify(value)) as unknown);

const entryArbitrary = (forCsv: boolean): fc.Arbitrary<AuditEntry> => {
  const str = forCsv ? csvSafe : text;
  const nonEmpty = str.filter((value) => value !== '');
  return fc
    .record(
      {
        id: fc.nat(),
        actionName: nonEmpty.filter((value) => value.trim() !== ''),
        userName: str,
        timestamp: fc
          .date({ min: new Date('1970-01-01'), max: new Date('9999-12-31'), noInvalidDate: true })
          .map((date) => date.toISOString()),
        parameters: fc.dictionary(fc.string({ maxLength: 8 }), json, { maxKeys: 4 }),
        resources: fc.array(fc.record({ type: str, id: str, name: str }, { requiredKeys: ['type', 'id'] }), {
          maxLength: 3,
        }),
        agentGroup: fc.record({ id: str.filter((value) => !/[()]/.test(value)), name: str }),
        category: fc.constantFrom('general', 'configuration', 'agent'),
        statusCode: fc.integer({ min: 100, max: 599 }),
        description: nonEmpty,
        instance: nonEmpty,
        sourceId: fc.nat(),
        tenant: nonEmpty.filter((value) => value !== 'gatehouse'),
      },
      {
        requiredKeys: ['id', 'actionName', 'userName', 'timestamp', 'parameters', 'resources', 'category'],
      },
    )
    .map((entry) => JSON.parse(JSON.stringify(entry)) as AuditEntry);
};

/** The text cut at these points and pushed piece by piece, as the console reads a file slice by slice. */
function parseInPieces(whole: string, cuts: number[]) {
  const parser = new AuditFileParser();
  let from = 0;
  for (const cut of [...cuts.map((c) => c % (whole.length + 1))].sort((a, b) => a - b)) {
    parser.push(whole.slice(from, cut));
    from = cut;
  }
  parser.push(whole.slice(from));
  return parser.end();
}

const cuts = fc.array(fc.nat(), { maxLength: 6 });

describe('the export file parser (fuzzed)', () => {
  it("reads Gatehouse's NDJSON export back into equal entries, however the text is cut", () => {
    fc.assert(
      fc.property(fc.array(entryArbitrary(false), { minLength: 1, maxLength: 8 }), cuts, (entries, at) => {
        const result = parseInPieces(entries.map(formatNdjsonRow).join(''), at);
        expect(result).toMatchObject({ ok: true, format: 'ndjson', problemCount: 0 });
        if (result.ok) expect(result.entries).toEqual(entries);
      }),
      { numRuns: 300 },
    );
  });

  it("reads Gatehouse's CSV export back into equal entries (all but the instance, which CSV has no column for)", () => {
    fc.assert(
      fc.property(fc.array(entryArbitrary(true), { minLength: 1, maxLength: 8 }), cuts, (entries, at) => {
        const result = parseInPieces(csvHeader() + entries.map(formatCsvRow).join(''), at);
        expect(result).toMatchObject({ ok: true, format: 'csv', problemCount: 0 });
        if (result.ok)
          expect(result.entries).toEqual(entries.map(({ instance: _instance, ...entry }) => entry));
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on arbitrary text, cut anywhere, and refuses a file none of whose lines is an entry', () => {
    const line = fc.oneof(
      text,
      json.map((value) => JSON.stringify(value)),
      entryArbitrary(false).map((entry) => formatNdjsonRow(entry).trimEnd()),
      entryArbitrary(true).map((entry) => formatCsvRow(entry).trimEnd()),
      fc.constant(csvHeader().trimEnd()),
    );
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 10 }),
        fc.constantFrom('\n', '\r\n'),
        cuts,
        (lines, end, at) => {
          const result = parseInPieces(lines.join(end), at);
          if (result.ok) {
            // An export of nothing (a CSV header alone) is a file of no entries; damaged lines alone are no export.
            if (result.entries.length === 0) expect(result.problemCount).toBe(0);
            expect(result.problems).toHaveLength(Math.min(result.problemCount, 1_000));
          } else expect(result.message).toMatch(/\S/);
        },
      ),
      { numRuns: 1_000 },
    );
  });
});
