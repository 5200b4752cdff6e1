import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { NewAuditEntry } from '../audit-entry.js';
import { normalizeImportEntry } from './normalize-import-entry.js';

export interface ImportProblem {
  /** `line 12` for NDJSON, `page 2, item 5` for JSON pages. */
  where: string;
  message: string;
}

export type ImportRecord = { entry: NewAuditEntry } | { problem: ImportProblem };

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Entries of a page (`{items}` as the endpoint returns, or `{data}`), or undefined when it is not a page. */
function pageItems(value: unknown): unknown[] | undefined {
  if (!isObject(value)) return undefined;
  if (Array.isArray(value.items)) return value.items;
  if (Array.isArray(value.data)) return value.data;
  return undefined;
}

function* recordsOfValue(
  value: unknown,
  where: (page: number | undefined, item: number) => string,
): Generator<ImportRecord> {
  const asPages = Array.isArray(value) ? value : [value];
  const isListOfPages = Array.isArray(value) && value.some((v) => pageItems(v) !== undefined);
  if (!Array.isArray(value) && pageItems(value) === undefined) {
    yield* recordsOfItems([value], (item) => where(undefined, item));
    return;
  }
  if (Array.isArray(value) && !isListOfPages) {
    yield* recordsOfItems(value, (item) => where(undefined, item));
    return;
  }
  for (let page = 0; page < asPages.length; page++) {
    const items = pageItems(asPages[page]);
    if (!items) {
      yield {
        problem: {
          where: where(page + 1, 0),
          message: 'not a page: expected an object with "items" or "data"',
        },
      };
      continue;
    }
    yield* recordsOfItems(items, (item) => where(page + 1, item));
  }
}

function* recordsOfItems(items: unknown[], where: (item: number) => string): Generator<ImportRecord> {
  for (let index = 0; index < items.length; index++) {
    const result = normalizeImportEntry(items[index]);
    yield result.ok
      ? { entry: result.entry }
      : { problem: { where: where(index + 1), message: result.message } };
  }
}

/**
 * Reads an audit import file: NDJSON (one entry, or one page, per line), or one JSON document that is a page,
 * an array of pages, or an array of entries. Bad records come out as problems, in order, and never stop the read.
 */
export async function* readImportFile(path: string): AsyncGenerator<ImportRecord> {
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  let lineNumber = 0;
  let ndjson: boolean | undefined;
  for await (const line of lines) {
    lineNumber++;
    const text = line.trim();
    if (text === '') continue;
    if (ndjson === undefined) {
      try {
        const first: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
        ndjson = isObject(first);
      } catch {
        ndjson = false;
      }
      if (!ndjson) break;
    }
    let value: unknown;
    try {
      value = JSON.parse(lineNumber === 1 ? text.replace(/^\uFEFF/, '') : text);
    } catch (error) {
      yield {
        problem: { where: `line ${lineNumber}`, message: `not valid JSON (${(error as Error).message})` },
      };
      continue;
    }
    const at = lineNumber;
    yield* recordsOfValue(value, (page, item) =>
      pageItems(value) ? `line ${at}, item ${item}` : `line ${at}`,
    );
  }
  lines.close();
  if (ndjson !== false) return;

  const text = (await readFile(path, 'utf8')).replace(/^\uFEFF/, '');
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    yield {
      problem: {
        where: 'file',
        message: `neither NDJSON nor one JSON document (${(error as Error).message})`,
      },
    };
    return;
  }
  yield* recordsOfValue(document, (page, item) =>
    page === undefined ? `item ${item}` : `page ${page}, item ${item}`,
  );
}
