import type { AuditEntry } from '../../core/audit/audit-entry.js';

export type AuditExportFormat = 'ndjson' | 'csv';

export const CSV_COLUMNS = [
  'id',
  'timestamp',
  'actionName',
  'userName',
  'category',
  'statusCode',
  'agentGroup',
  'resources',
  'parameters',
  'description',
  'sourceId',
] as const;

/** Spreadsheet programs run cells starting with these as formulas; a leading quote keeps them text. */
const FORMULA_START = /^[=+\-@\t\r]/;

function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  let text =
    typeof value === 'string' ? value : typeof value === 'number' ? String(value) : JSON.stringify(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvHeader(): string {
  return `${CSV_COLUMNS.join(',')}\r\n`;
}

export function formatCsvRow(entry: AuditEntry): string {
  const cells = [
    entry.id,
    entry.timestamp,
    entry.actionName,
    entry.userName,
    entry.category,
    entry.statusCode,
    entry.agentGroup ? `${entry.agentGroup.name} (${entry.agentGroup.id})` : undefined,
    entry.resources.length > 0 ? entry.resources : undefined,
    entry.parameters,
    entry.description,
    entry.sourceId,
  ];
  return `${cells.map(csvCell).join(',')}\r\n`;
}

export function formatNdjsonRow(entry: AuditEntry): string {
  return `${JSON.stringify(entry)}\n`;
}

/** Yields the export text in chunks of many rows, so writers are not called once per entry. */
export async function* formatAuditExport(
  entries: AsyncIterable<AuditEntry>,
  format: AuditExportFormat,
): AsyncIterable<string> {
  const format1 = format === 'csv' ? formatCsvRow : formatNdjsonRow;
  let chunk = format === 'csv' ? csvHeader() : '';
  for await (const entry of entries) {
    chunk += format1(entry);
    if (chunk.length >= 64 * 1024) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk.length > 0) yield chunk;
}
