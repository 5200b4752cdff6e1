import { describe, expect, it } from 'vitest';
import {
  csvHeader,
  formatCsvRow,
  formatNdjsonRow,
} from '../../../../src-server/control/audit/audit-export-format.js';
import type { AuditEntry } from '../../../../src-server/core/audit/audit-entry.js';
import { CHAIN_LINE_KEYS } from '../../../../src-server/core/audit/chain/chain-export.js';
import { parseAuditFile } from '../../../../src-renderer/audit-file/audit-file-parser.js';
import { filterFileEntries } from '../../../../src-renderer/audit-file/filter-file-entries.js';

const entry = (id: number, extra: Partial<AuditEntry> = {}): AuditEntry => ({
  id,
  actionName: 'Passthroughs.Modify',
  userName: 'erin',
  timestamp: `2026-03-0${id}T10:00:00.000Z`,
  parameters: { name: 'orders-api sync', options: { dryRun: true } },
  resources: [{ type: 'Api', id: `api-${id}`, name: `Orders ${id}` }],
  category: 'configuration',
  statusCode: 200,
  ...extra,
});

describe('opening an export file', () => {
  it("skips a whole-tenant export's chain lines and counts them", () => {
    const text =
      formatNdjsonRow({ ...entry(2), chain: { seq: 2, hash: 'b' } } as AuditEntry) +
      formatNdjsonRow(entry(1)) +
      `${JSON.stringify({ auditChainCheckpoint: { seq: 2, hash: 'b', signature: 's' } })}\n` +
      `${JSON.stringify({ auditChain: { version: 1, tenant: 'gatehouse', headSeq: 2 } })}\n`;
    // The keys the server writes are the ones the console skips.
    expect(CHAIN_LINE_KEYS).toEqual(['auditChain', 'auditChainCheckpoint', 'auditChainRemoval']);
    const result = parseAuditFile(text);
    expect(result).toMatchObject({ ok: true, format: 'ndjson', chainLines: 2, problemCount: 0 });
    if (result.ok) expect(result.entries).toEqual([entry(2), entry(1)]);
  });

  it("reads the platform's other shape and page lines, as the importer does", () => {
    const platform = {
      id: 29,
      action: 'Processes.Deploy',
      user: 'alice',
      timestampUtc: '2026-03-01T10:00:00',
      parameters: '{"processId":"p-1"}',
    };
    const result = parseAuditFile(
      `${JSON.stringify(platform)}\n${JSON.stringify({ items: [platform, { action: 'x' }] })}\n`,
    );
    expect(result).toMatchObject({
      ok: true,
      problems: [{ line: 2, item: 2, message: 'userName (or user) is missing' }],
    });
    if (result.ok) {
      expect(result.entries).toHaveLength(2);
      expect(result.entries[0]).toEqual({
        id: 29,
        actionName: 'Processes.Deploy',
        userName: 'alice',
        timestamp: '2026-03-01T10:00:00.000Z',
        parameters: { processId: 'p-1' },
        resources: [],
        category: 'general',
      });
    }
  });

  it('reports each damaged line with its number and reason, and shows the rest', () => {
    const lines = [
      formatNdjsonRow(entry(1)).trim(),
      '{"actionName": "Apis.Create", "userName": "bob", "timestamp": "yesterday"}',
      '{not json',
      '',
      '[1, 2]',
      formatNdjsonRow(entry(2)).trim(),
    ];
    const result = parseAuditFile(lines.join('\r\n'));
    expect(result).toMatchObject({ ok: true, problemCount: 3 });
    if (!result.ok) return;
    expect(result.entries.map((e) => e.id)).toEqual([1, 2]);
    expect(result.problems.map((p) => p.line)).toEqual([2, 3, 5]);
    expect(result.problems[0]!.message).toBe("timestamp 'yesterday' is not an ISO 8601 date-time");
    expect(result.problems[1]!.message).toMatch(/^not valid JSON/);
    expect(result.problems[2]!.message).toBe('not a JSON object');
  });

  it('reads the CSV export, quoted cells over several lines included, and numbers lines as a text editor does', () => {
    const multiline = entry(2, { description: 'two\r\nlines, "quoted"', userName: '=cmd' });
    const text = csvHeader() + formatCsvRow(multiline) + 'only,three,cells\r\n' + formatCsvRow(entry(1));
    const result = parseAuditFile(text);
    expect(result).toMatchObject({
      ok: true,
      format: 'csv',
      problems: [{ line: 4, message: '3 cells where the header names 12' }],
    });
    if (result.ok) expect(result.entries).toEqual([multiline, entry(1)]);
  });

  it('decides the format on the first line with text, after a byte order mark and blank lines', () => {
    const ndjson = parseAuditFile(`\uFEFF\n\r\n${formatNdjsonRow(entry(1))}`);
    expect(ndjson).toMatchObject({ ok: true, format: 'ndjson', entries: [entry(1)] });
    const csv = parseAuditFile(`\uFEFF\r\n${csvHeader()}${formatCsvRow(entry(1))}`);
    expect(csv).toMatchObject({ ok: true, format: 'csv', entries: [entry(1)] });
    expect(parseAuditFile(csvHeader())).toMatchObject({ ok: true, entries: [], problemCount: 0 });
  });

  it('reports a quoted CSV cell that is never closed', () => {
    const result = parseAuditFile(`${csvHeader()}${formatCsvRow(entry(1))}3,"2026-03-01`);
    expect(result).toMatchObject({
      ok: true,
      problems: [{ line: 3, message: 'a quoted cell is never closed' }],
    });
  });

  it('refuses a file that is not an export, with a reason', () => {
    for (const text of ['# Notes\nsome text', 'name,value\na,1', '{\n  "pretty": true\n}', '[{"a":1}]', '']) {
      const result = parseAuditFile(text);
      expect(result.ok, text).toBe(false);
      if (!result.ok) expect(result.message).toMatch(/not an audit export|No line of the file|empty/);
    }
  });
});

describe('filtering a file like the live audit log', () => {
  const entries = [
    entry(3, { userName: 'Bob', actionName: 'Apis.Delete', parameters: { note: 'Invoice-Export nightly' } }),
    entry(2, { instance: 'node-b' }),
    entry(1),
  ];
  const ids = (filter: Parameters<typeof filterFileEntries>[1]) =>
    filterFileEntries(entries, filter).map((e) => e.id);

  it('applies the time range with the start inclusive and the end exclusive, UTC without an offset', () => {
    expect(ids({ startDateTimeUtc: '2026-03-02T10:00:00.000Z' })).toEqual([3, 2]);
    expect(ids({ endDateTimeUtc: '2026-03-02T10:00' })).toEqual([1]);
  });

  it('matches action and user exactly in any case, instance and resource exactly', () => {
    expect(ids({ actionName: 'apis.delete' })).toEqual([3]);
    expect(ids({ userName: 'bob' })).toEqual([3]);
    expect(ids({ userName: 'bo' })).toEqual([]);
    expect(ids({ instance: 'node-b' })).toEqual([2]);
    expect(ids({ resource: 'Api:api-1' })).toEqual([1]);
    expect(ids({ resource: 'Api:api' })).toEqual([]);
  });

  it('searches every word as the start of a word of the parameter values', () => {
    expect(ids({ search: 'invoice exp' })).toEqual([3]);
    expect(ids({ search: 'orders-api' })).toEqual([2, 1]);
    expect(ids({ search: 'true' })).toEqual([2, 1]);
    expect(ids({ search: 'voice' })).toEqual([]);
  });
});
