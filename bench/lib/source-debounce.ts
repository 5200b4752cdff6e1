import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface FoundDebounce {
  ms: number;
  /** Where it was found, relative to `root`, with the matching text. */
  where: string;
}

const PATTERNS = [
  /\b[A-Z_]*DEBOUNCE[A-Z_]*\s*=\s*([\d_]+)/,
  /\bdebounce\w*\s*[:=]\s*([\d_]+)/i,
  /useDebounced\w*\([^(),]+,\s*([\d_]+)\s*\)/,
];

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { recursive: true, encoding: 'utf8' })
    .map((name) => join(path, name))
    .filter((file) => /\.tsx?$/.test(file))
    .sort();
}

/**
 * The first debounce delay (ms) written as a number literal in the source at `path` (a file or a folder), looking
 * first in the files whose path matches `prefer`.
 */
export function findDebounceMs(root: string, path: string, prefer?: RegExp): FoundDebounce | undefined {
  const files = filesUnder(join(root, path));
  const ordered = prefer
    ? [...files.filter((f) => prefer.test(f)), ...files.filter((f) => !prefer.test(f))]
    : files;
  for (const file of ordered) {
    const text = readFileSync(file, 'utf8');
    for (const pattern of PATTERNS) {
      const match = pattern.exec(text);
      if (match)
        return { ms: Number(match[1]!.replaceAll('_', '')), where: `${relative(root, file)}: ${match[0]}` };
    }
  }
  return undefined;
}
