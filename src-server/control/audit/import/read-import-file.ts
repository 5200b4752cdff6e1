import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { NewAuditEntry } from '../../../core/audit/audit-entry.js';
import { normalizeImportEntry } from './normalize-import-entry.js';
import { isChainEvidenceLine } from '../../../core/audit/chain/chain-export.js';

export interface ImportProblem {
  /** `line 12` for NDJSON, `page 2, item 5` for JSON pages. */
  where: string;
  message: string;
}

export type ImportRecord = { entry: NewAuditEntry } | { problem: ImportProblem };

const BATCH_RECORDS = 2_000;

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Entries of a page (`{items}` as the endpoint returns, or `{data}`), or undefined when it is not a page. */
function pageItems(value: unknown): unknown[] | undefined {
  if (!isObject(value)) return undefined;
  if (Array.isArray(value.items)) return value.items as unknown[];
  if (Array.isArray(value.data)) return value.data as unknown[];
  return undefined;
}

function recordOf(raw: unknown, where: () => string): ImportRecord {
  const result = normalizeImportEntry(raw);
  return result.ok ? { entry: result.entry } : { problem: { where: where(), message: result.message } };
}

/** The records of one JSON value: an entry, a page, an array of entries or an array of pages. */
function recordsOfValue(
  value: unknown,
  where: (page: number | undefined, item: number) => string,
): ImportRecord[] {
  const items = pageItems(value);
  if (items) return items.map((item, index) => recordOf(item, () => where(undefined, index + 1)));
  if (!Array.isArray(value)) return [recordOf(value, () => where(undefined, 1))];
  if (!value.some((element) => pageItems(element) !== undefined)) {
    return value.map((item, index) => recordOf(item, () => where(undefined, index + 1)));
  }
  return value.flatMap((page, pageIndex) => {
    const pageEntries = pageItems(page);
    if (!pageEntries) {
      return [
        {
          problem: {
            where: where(pageIndex + 1, 0),
            message: 'not a page: expected an object with "items" or "data"',
          },
        },
      ];
    }
    return pageEntries.map((item, index) => recordOf(item, () => where(pageIndex + 1, index + 1)));
  });
}

/** Lines of a UTF-8 file, without their line ends, read in large chunks. */
async function* linesOf(path: string): AsyncGenerator<string[]> {
  let rest = '';
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    const text = rest + (chunk as string);
    const lines = text.split('\n');
    rest = lines.pop() ?? '';
    yield lines;
  }
  if (rest !== '') yield [rest];
}

/**
 * Reads an audit import file: NDJSON (one entry, or one page, per line), or one JSON document that is a page,
 * an array of pages, or an array of entries. Records come out in batches and in order; bad records come out as
 * problems and never stop the read.
 */
export async function* readImportFile(path: string): AsyncGenerator<ImportRecord[]> {
  let lineNumber = 0;
  let ndjson: boolean | undefined;
  let batch: ImportRecord[] = [];
  outer: for await (const lines of linesOf(path)) {
    for (const line of lines) {
      lineNumber++;
      const text = (lineNumber === 1 ? line.replace(/^\uFEFF/, '') : line).trim();
      if (text === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        // A first line that is not a whole JSON value means the file is one (pretty-printed) document.
        if (ndjson === undefined) {
          ndjson = false;
          break outer;
        }
        batch.push({
          problem: { where: `line ${lineNumber}`, message: `not valid JSON (${(error as Error).message})` },
        });
        continue;
      }
      if (ndjson === undefined) {
        ndjson = isObject(value);
        if (!ndjson) break outer;
      }
      // A verifiable export's checkpoints, removal records and key: evidence, not entries.
      if (isChainEvidenceLine(value)) continue;
      const at = lineNumber;
      const isPage = pageItems(value) !== undefined;
      for (const record of recordsOfValue(value, (_page, item) =>
        isPage ? `line ${at}, item ${item}` : `line ${at}`,
      )) {
        batch.push(record);
      }
      if (batch.length >= BATCH_RECORDS) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length > 0) yield batch;
  if (ndjson !== false) return;

  const text = (await readFile(path, 'utf8')).replace(/^\uFEFF/, '');
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    yield [
      {
        problem: {
          where: 'file',
          message: `neither NDJSON nor one JSON document (${(error as Error).message})`,
        },
      },
    ];
    return;
  }
  const records = recordsOfValue(document, (page, item) =>
    page === undefined ? `item ${item}` : `page ${page}, item ${item}`,
  );
  for (let start = 0; start < records.length; start += BATCH_RECORDS)
    yield records.slice(start, start + BATCH_RECORDS);
}
