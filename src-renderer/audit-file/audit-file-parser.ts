import type { AuditEntry } from '../api/types.js';
import { CsvRecordReader, type CsvRecord } from './csv-records.js';
import { isAuditCsvHeader, recordOfCsvRow } from './csv-row.js';
import { fileEntryOf } from './file-entry.js';

export type AuditFileFormat = 'ndjson' | 'csv';

/** A line that holds no entry: where (1-based; `item` inside a page line) and why. */
export interface LineProblem {
  line: number;
  item?: number;
  message: string;
}

export interface AuditFileContents {
  ok: true;
  format: AuditFileFormat;
  /** In file order. */
  entries: AuditEntry[];
  /** The first `MAX_PROBLEMS` lines that were skipped. */
  problems: LineProblem[];
  problemCount: number;
  /** A whole-tenant NDJSON export's tamper evidence (checkpoints, removal records, the key): not entries. */
  chainLines: number;
}

export type AuditFileResult = AuditFileContents | { ok: false; message: string };

export const MAX_PROBLEMS = 1_000;
const CHAIN_LINE_KEYS = ['auditChain', 'auditChainCheckpoint', 'auditChainRemoval'];

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** A line of a verifiable export that is evidence, not an entry: an object with one of the chain's keys only. */
function isChainLine(value: Record<string, unknown>): boolean {
  const keys = Object.keys(value);
  return keys.length === 1 && CHAIN_LINE_KEYS.includes(keys[0]!);
}

/** The entries of a page line (`{items}` as the endpoint answers, or `{data}`), or undefined. */
function pageItems(value: Record<string, unknown>): unknown[] | undefined {
  if (Array.isArray(value.items)) return value.items as unknown[];
  if (Array.isArray(value.data)) return value.data as unknown[];
  return undefined;
}

const NOT_AN_EXPORT =
  'This is not an audit export: its first line is neither a JSON object (NDJSON, one entry per line) nor the header of a CSV export (timestamp, actionName, userName, …).';

/**
 * Reads an audit export given as text in chunks of any size, without ever throwing: Gatehouse's NDJSON (entries
 * one per line, a whole tenant's export followed by its chain lines; the platform's item shape and page lines
 * too) or its CSV. The first line decides the format; a file that is neither is refused. Bad lines are reported
 * and skipped.
 */
export class AuditFileParser {
  private format: AuditFileFormat | undefined;
  private refusal: string | undefined;
  private pending = '';
  private lineNumber = 0;
  private readonly entries: AuditEntry[] = [];
  private readonly problems: LineProblem[] = [];
  private problemCount = 0;
  private chainLines = 0;
  private csv: CsvRecordReader | undefined;
  private columns: string[] | undefined;

  /** Entries read so far (for progress). */
  get entryCount(): number {
    return this.entries.length;
  }

  /** Set once the first line showed the file is no export: reading further is pointless. */
  get refused(): string | undefined {
    return this.refusal;
  }

  push(text: string): void {
    if (this.refusal !== undefined) return;
    if (this.format === undefined) {
      this.pending += text;
      this.decideOnPending(false);
      return;
    }
    this.route(text);
  }

  end(): AuditFileResult {
    if (this.format === undefined && this.refusal === undefined) {
      if (this.pending.trim() === '') return { ok: false, message: 'The file is empty.' };
      this.decideOnPending(true);
    }
    if (this.refusal !== undefined) return { ok: false, message: this.refusal };
    if (this.format === 'ndjson') {
      if (this.pending !== '') this.ndjsonLine(this.pending);
      this.pending = '';
    } else if (this.csv) {
      const { unclosedQuoteAt } = this.csv.end((record) => this.csvRecord(record));
      if (unclosedQuoteAt !== undefined)
        this.problem({ line: unclosedQuoteAt, message: 'a quoted cell is never closed' });
    }
    if (this.entries.length === 0 && this.problemCount > 0) {
      const first = this.problems[0]!;
      return {
        ok: false,
        message: `No line of the file is an audit entry (line ${first.line}: ${first.message}).`,
      };
    }
    return {
      ok: true,
      format: this.format!,
      entries: this.entries,
      problems: this.problems,
      problemCount: this.problemCount,
      chainLines: this.chainLines,
    };
  }

  /** Once the first line with text is whole (or the file ends), decides the format and reads what was held. */
  private decideOnPending(final: boolean): void {
    const start = this.pending.search(/[^\s\uFEFF]/);
    if (start < 0 && !final) return;
    const end = this.pending.indexOf('\n', start);
    if (end < 0 && !final && this.pending.length - start < 64 * 1024) return;
    if (!this.decide(this.pending.slice(start, end < 0 ? undefined : end))) return;
    const buffered = this.pending;
    this.pending = '';
    this.route(buffered);
  }

  /** Whether the first line is an export's (and of which format); else the file is refused. */
  private decide(firstLine: string): boolean {
    const line = firstLine.replace(/^\uFEFF/, '').trim();
    if (line.startsWith('{')) {
      this.format = 'ndjson';
      return true;
    }
    const columns = line.split(',').map((column) => column.trim().replace(/^"(.*)"$/, '$1'));
    if (isAuditCsvHeader(columns)) {
      this.format = 'csv';
      this.csv = new CsvRecordReader();
      return true;
    }
    this.refusal = line.startsWith('[')
      ? `${NOT_AN_EXPORT} A JSON array can be imported with gatehouse audit import.`
      : NOT_AN_EXPORT;
    return false;
  }

  private route(text: string): void {
    if (this.format === 'csv') {
      this.csv!.push(text, (record) => this.csvRecord(record));
      return;
    }
    const lines = (this.pending + text).split('\n');
    this.pending = lines.pop()!;
    for (const line of lines) this.ndjsonLine(line);
  }

  private problem(problem: LineProblem): void {
    this.problemCount++;
    if (this.problems.length < MAX_PROBLEMS) this.problems.push(problem);
  }

  private add(raw: unknown, line: number, item?: number): void {
    const result = fileEntryOf(raw, this.entries.length + 1);
    if (result.ok) this.entries.push(result.entry);
    else this.problem({ line, ...(item === undefined ? {} : { item }), message: result.message });
  }

  private ndjsonLine(rawLine: string): void {
    const line = ++this.lineNumber;
    const text = (line === 1 ? rawLine.replace(/^\uFEFF/, '') : rawLine).trim();
    if (text === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.problem({ line, message: `not valid JSON (${(error as Error).message})` });
      return;
    }
    if (!isObject(value)) {
      this.problem({ line, message: 'not a JSON object' });
      return;
    }
    if (isChainLine(value)) {
      this.chainLines++;
      return;
    }
    const items = pageItems(value);
    if (items) items.forEach((item, index) => this.add(item, line, index + 1));
    else this.add(value, line);
  }

  private csvRecord(record: CsvRecord): void {
    if (!this.columns) {
      const columns = record.cells.map((cell) => cell.replace(/^\uFEFF/, '').trim());
      // Lines before the header that hold only a byte order mark or spaces.
      if (columns.some((column) => column !== '')) this.columns = columns;
      return;
    }
    if (record.cells.length !== this.columns.length) {
      this.problem({
        line: record.line,
        message: `${record.cells.length} cells where the header names ${this.columns.length}`,
      });
      return;
    }
    this.add(recordOfCsvRow(this.columns, record.cells), record.line);
  }
}

/** The whole text at once (tests, small files). */
export function parseAuditFile(text: string): AuditFileResult {
  const parser = new AuditFileParser();
  parser.push(text);
  return parser.end();
}
