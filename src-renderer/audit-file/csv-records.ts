/** One record of a CSV file: its cells and the line it starts on (1-based; a quoted cell may span lines). */
export interface CsvRecord {
  line: number;
  cells: string[];
}

export type CsvEvent = { record: CsvRecord } | { unclosedQuoteAt: number };

const QUOTE = 0x22;
const COMMA = 0x2c;
const NEWLINE = 0x0a;
const RETURN = 0x0d;

/**
 * Reads RFC 4180 CSV (what Gatehouse's export writes: CRLF, quoted cells with `""`) from text given in chunks
 * of any size, keeping the line each record starts on. A quote inside an unquoted cell is text, as spreadsheets
 * read it. Our own rather than a library: the chunk edges and the line numbers need this state machine anyway,
 * and once it exists the cells come out of it for free.
 */
export class CsvRecordReader {
  private state: 'start' | 'unquoted' | 'quoted' | 'afterQuote' = 'start';
  private field = '';
  private cells: string[] = [];
  private line = 1;
  private recordLine = 1;

  push(text: string, emit: (record: CsvRecord) => void): void {
    let segment = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      switch (this.state) {
        case 'start':
        case 'unquoted':
          if (c === QUOTE && this.state === 'start') {
            this.state = 'quoted';
            segment = i + 1;
          } else if (c === COMMA) {
            this.endCell(this.field + text.slice(segment, i));
            segment = i + 1;
          } else if (c === NEWLINE) {
            const cell = this.field + text.slice(segment, i);
            this.endCell(cell.endsWith('\r') ? cell.slice(0, -1) : cell);
            this.endRecord(emit);
            segment = i + 1;
          } else this.state = 'unquoted';
          break;
        case 'quoted':
          if (c === QUOTE) {
            this.field += text.slice(segment, i);
            this.state = 'afterQuote';
            segment = i + 1;
          } else if (c === NEWLINE) this.line++;
          break;
        case 'afterQuote':
          if (c === QUOTE) {
            // `""` inside a quoted cell: one quote, and the cell goes on.
            this.field += '"';
            this.state = 'quoted';
            segment = i + 1;
          } else if (c === COMMA) {
            this.endCell(this.field);
            segment = i + 1;
          } else if (c === NEWLINE) {
            this.endCell(this.field);
            this.endRecord(emit);
            segment = i + 1;
          } else if (c === RETURN) segment = i + 1;
          else {
            // Text after the closing quote: kept, as a spreadsheet would.
            this.state = 'unquoted';
            segment = i;
          }
          break;
      }
    }
    if (this.state !== 'afterQuote') this.field += text.slice(segment);
  }

  /** The last record (a file need not end with a line end); reports a quoted cell left open. */
  end(emit: (record: CsvRecord) => void): { unclosedQuoteAt?: number } {
    if (this.state === 'quoted') return { unclosedQuoteAt: this.recordLine };
    if (this.state !== 'start' || this.field !== '' || this.cells.length > 0) {
      this.endCell(this.field.endsWith('\r') ? this.field.slice(0, -1) : this.field);
      this.endRecord(emit);
    }
    return {};
  }

  private endCell(cell: string): void {
    this.cells.push(cell);
    this.field = '';
    this.state = 'start';
  }

  private endRecord(emit: (record: CsvRecord) => void): void {
    const cells = this.cells;
    const line = this.recordLine;
    this.cells = [];
    this.line++;
    this.recordLine = this.line;
    // A blank line is no record.
    if (cells.length > 1 || cells[0] !== '') emit({ line, cells });
  }
}
