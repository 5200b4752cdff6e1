import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  ERROR_CODES,
  ErrorCode,
  type ErrorCodeEntry,
  type ErrorSource,
} from '../../../src-server/core/contracts/error-codes.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const REGISTRY = 'src-server/core/contracts/error-codes.ts';
const CODE = /GH_ERR_[A-Z0-9_]+/g;
const SOURCE_NAMES: Record<ErrorSource, string> = {
  control: 'Control Panel',
  gateway: 'gateway',
  cli: 'CLI',
  internal: 'server',
};

const entries = Object.entries(ERROR_CODES) as [string, ErrorCodeEntry][];

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

const read = (file: string) => readFileSync(join(root, file), 'utf8');
const serverFiles = sourceFiles('src-server').filter((file) => file !== REGISTRY);
const consoleFiles = [...sourceFiles('src-renderer'), ...sourceFiles('src-main')];

/** The rows of the table in docs/ERROR-CODES.md: code → the other cells as written. */
function documentedRows(): Map<string, { status: string; from: string; meaning: string }> {
  const rows = new Map<string, { status: string; from: string; meaning: string }>();
  for (const line of read('docs/ERROR-CODES.md').split('\n')) {
    const cells = /^\| `(GH_ERR_[A-Z0-9_]+)` \| (.+?) \| (.+?) \| (.+) \|$/.exec(line);
    if (!cells) continue;
    expect(rows.has(cells[1]!), `${cells[1]} is listed twice`).toBe(false);
    rows.set(cells[1]!, { status: cells[2]!, from: cells[3]!, meaning: cells[4]! });
  }
  return rows;
}

describe('the error code registry', () => {
  it('spells each code GH_ERR_* and names it by itself', () => {
    for (const [code, entry] of entries) {
      expect(code).toMatch(/^GH_ERR_[A-Z0-9]+(?:_[A-Z0-9]+)*$/);
      expect(ErrorCode[code as ErrorCode]).toBe(code);
      expect(entry.sources.length).toBeGreaterThan(0);
      if (entry.status !== undefined) expect(entry.status).toBeGreaterThanOrEqual(400);
      const answersHttp = entry.sources.includes('control') || entry.sources.includes('gateway');
      expect(entry.status !== undefined, `${code}: a status exactly when it answers HTTP`).toBe(answersHttp);
    }
    expect(Object.keys(ErrorCode)).toEqual(Object.keys(ERROR_CODES));
  });

  it('agrees with the table in docs/ERROR-CODES.md, row by row', () => {
    const documented = documentedRows();
    const expected = new Map(
      entries.map(([code, entry]) => [
        code,
        {
          status: entry.status === undefined ? '—' : String(entry.status),
          from: entry.sources.map((source) => SOURCE_NAMES[source]).join(', '),
          meaning: entry.meaning,
        },
      ]),
    );
    expect(
      [...documented.keys()].filter((code) => !expected.has(code)),
      'documented, not registered',
    ).toEqual([]);
    expect(
      [...expected.keys()].filter((code) => !documented.has(code)),
      'registered, not documented',
    ).toEqual([]);
    for (const [code, row] of expected) expect(documented.get(code), code).toEqual(row);
  });

  it('knows every code the server, the console and the desktop shell use', () => {
    const unknown = [...serverFiles, ...consoleFiles].flatMap((file) =>
      [...read(file).matchAll(CODE)].map(([code]) => code).filter((code) => !(code in ERROR_CODES)),
    );
    expect(unknown).toEqual([]);
  });

  it('has no code that nothing raises', () => {
    const used = new Set(serverFiles.flatMap((file) => [...read(file).matchAll(CODE)].map(([code]) => code)));
    expect(Object.keys(ERROR_CODES).filter((code) => !used.has(code))).toEqual([]);
  });

  it('is the only place the server spells a code: elsewhere it is ErrorCode.GH_ERR_…', () => {
    const literals = serverFiles.flatMap((file) =>
      [...read(file).matchAll(/(?<!ErrorCode\.)\bGH_ERR_[A-Z0-9_]+/g)].map(([code]) => `${file}: ${code}`),
    );
    expect(literals).toEqual([]);
  });

  it('is the base of every error class of the server', () => {
    const plainSubclasses = serverFiles.filter((file) => /\bextends Error\b/.test(read(file)));
    expect(plainSubclasses).toEqual(['src-server/core/errors/gatehouse-error.ts']);
  });

  it('is linked from the README section on errors', () => {
    const readme = read('README.md');
    const section = readme.slice(
      readme.indexOf('## Errors'),
      readme.indexOf('\n## ', readme.indexOf('## Errors')),
    );
    expect(section).toContain('(docs/ERROR-CODES.md)');
  });
});
