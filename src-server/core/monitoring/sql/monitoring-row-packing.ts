import type { NewMonitoringRecord } from '../monitoring-record.js';
import { recordTimeMs } from '../normalize-record.js';
import { RECORD_WRITE_COLUMNS, writeRecordValues } from './monitoring-rows.js';

/**
 * Rows of RECORD_WRITE_COLUMNS values packed for the monitoring writer thread. A structured clone copies every
 * string of an array of values one by one (a 1,000-row batch holds 14,000), and the thread then collects them:
 * about 2.5 µs per row. Packed, the numbers travel in one Float64Array and the text columns as indexes into a
 * table of distinct strings (most columns hold a few values per batch: the agent group, the method, the API,
 * the outcome…). The arrays are copied, not transferred: should the thread die, the main thread writes the rows.
 */
export interface PackedRows {
  rows: number;
  /** NUMBER_COLUMNS values per row, row after row; NaN stands for null. */
  numbers: Float64Array;
  /** TEXT_COLUMNS indexes into `texts` per row, row after row; -1 stands for null. */
  textRefs: Int32Array;
  texts: string[];
}

const WIDTH = RECORD_WRITE_COLUMNS.length;
const NUMBER_COLUMN_NAMES: ReadonlySet<string> = new Set([
  'id',
  'time_ms',
  'status',
  'duration_ms',
  'bytes_in',
  'bytes_out',
  'recorded_at',
  'via_all_operations',
]);
/** Positions in a row of values of the number columns and of the text columns. */
const NUMBER_COLUMNS = RECORD_WRITE_COLUMNS.flatMap((name, k) => (NUMBER_COLUMN_NAMES.has(name) ? [k] : []));
const TEXT_COLUMNS = RECORD_WRITE_COLUMNS.flatMap((name, k) => (NUMBER_COLUMN_NAMES.has(name) ? [] : [k]));

/** Packs the rows of records one at a time (`add`), then hands them over once (`finish`). */
export class RowPacker {
  #rows = 0;
  readonly #numbers: Float64Array;
  readonly #textRefs: Int32Array;
  readonly #texts: string[] = [];
  readonly #textIndex = new Map<string, number>();
  readonly #row = new Array<unknown>(WIDTH);
  /** Per text column, the last value and its index: most columns repeat the previous row's value. */
  readonly #lastTexts = new Array<string | null>(TEXT_COLUMNS.length).fill(null);
  readonly #lastRefs = new Int32Array(TEXT_COLUMNS.length).fill(-1);

  constructor(
    capacity: number,
    private readonly recordedAt: number,
  ) {
    this.#numbers = new Float64Array(capacity * NUMBER_COLUMNS.length);
    this.#textRefs = new Int32Array(capacity * TEXT_COLUMNS.length);
  }

  get rows(): number {
    return this.#rows;
  }

  /** Adds the record's row, ids left for the writer; false (and nothing added) if it has no usable time. */
  add(record: NewMonitoringRecord): boolean {
    const timeMs = recordTimeMs(record);
    if (!Number.isFinite(timeMs)) return false;
    const row = this.#row;
    writeRecordValues(record, timeMs, 0, this.recordedAt, row, 0);
    let at = this.#rows * NUMBER_COLUMNS.length;
    for (const column of NUMBER_COLUMNS) this.#numbers[at++] = (row[column] as number | null) ?? Number.NaN;
    at = this.#rows * TEXT_COLUMNS.length;
    const lastTexts = this.#lastTexts;
    for (let k = 0; k < TEXT_COLUMNS.length; k++) {
      const text = row[TEXT_COLUMNS[k]!] as string | null;
      // A string equal to the column's previous one (often the very same string) needs no hashing.
      if (text === lastTexts[k]) this.#textRefs[at++] = this.#lastRefs[k]!;
      else {
        const ref = this.#refOf(text);
        lastTexts[k] = text;
        this.#lastRefs[k] = ref;
        this.#textRefs[at++] = ref;
      }
    }
    this.#rows++;
    return true;
  }

  /** The packed rows (views of the packer's arrays). */
  finish(): PackedRows {
    return {
      rows: this.#rows,
      numbers: this.#numbers.subarray(0, this.#rows * NUMBER_COLUMNS.length),
      textRefs: this.#textRefs.subarray(0, this.#rows * TEXT_COLUMNS.length),
      texts: this.#texts,
    };
  }

  #refOf(text: string | null): number {
    if (text === null) return -1;
    let ref = this.#textIndex.get(text);
    if (ref === undefined) {
      ref = this.#texts.push(text) - 1;
      this.#textIndex.set(text, ref);
    }
    return ref;
  }
}

/** Writes `count` packed rows from `from` into `out` as rows of RECORD_WRITE_COLUMNS values (what SQLite binds). */
export function unpackRows(packed: PackedRows, from: number, count: number, out: unknown[]): void {
  const { numbers, textRefs, texts } = packed;
  for (let row = 0; row < count; row++) {
    const at = row * WIDTH;
    let number = (from + row) * NUMBER_COLUMNS.length;
    for (const column of NUMBER_COLUMNS) {
      const value = numbers[number++]!;
      out[at + column] = Number.isNaN(value) ? null : value;
    }
    let text = (from + row) * TEXT_COLUMNS.length;
    for (const column of TEXT_COLUMNS) {
      const ref = textRefs[text++]!;
      out[at + column] = ref < 0 ? null : texts[ref];
    }
  }
}
