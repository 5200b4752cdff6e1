import { scanDocument, type RefSite } from './document-scan.js';
import { appendPointer } from './json-pointer.js';
import type { DefinitionIssue } from './types.js';

/**
 * The `$ref`s of a document: every distinct reference at once, and where they are written only when asked
 * (to point a warning at a dangling or external one). For JSON the references come from the text and the
 * nesting depth is checked there too, so a 20 MB description is not walked node by node unless one of its
 * references is broken.
 */
export interface RefIndex {
  refs: ReadonlySet<string>;
  sitesOf: (wanted: ReadonlySet<string>) => RefSite[];
}

export function refIndexOfSites(sites: readonly RefSite[]): RefIndex {
  return {
    refs: new Set(sites.map((site) => site.ref)),
    sitesOf: (wanted) => sites.filter((site) => wanted.has(site.ref)),
  };
}

const REF_MEMBER = /"\$ref"\s*:\s*"((?:[^"\\]|\\.)*)"/g;

/**
 * For a parsed JSON text: refuses nesting deeper than `maxDepth` (found in the text, iteratively), and indexes
 * the references without walking the parsed value.
 */
export function jsonRefIndex(
  text: string,
  value: unknown,
  maxDepth: number,
): { ok: true; index: RefIndex } | { ok: false; error: DefinitionIssue } {
  const tooDeep = deepestOffset(text, maxDepth);
  if (tooDeep !== undefined) {
    // The walk names where: it refuses at the first node that is too deep.
    const scan = scanDocument(value, { maxDepth, maxAliasExpansion: Infinity, valuesMayBeShared: false });
    if (!scan.ok) return scan;
    return {
      ok: false,
      error: { pointer: '', message: `the document nests deeper than ${maxDepth} levels` },
    };
  }
  const refs = new Set<string>();
  for (const match of text.matchAll(REF_MEMBER)) {
    const raw = match[1]!;
    refs.add(raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw);
  }
  let sites: RefSite[] | undefined;
  return {
    ok: true,
    index: {
      refs,
      sitesOf(wanted) {
        sites ??= collectSites(value);
        return sites.filter((site) => wanted.has(site.ref));
      },
    },
  };
}

/** The offset where nesting first exceeds `maxDepth`, skipping strings; undefined when it never does. */
function deepestOffset(text: string, maxDepth: number): number | undefined {
  const structural = /["{}[\]]/g;
  let depth = 0;
  for (let match = structural.exec(text); match !== null; match = structural.exec(text)) {
    const char = match[0];
    if (char === '"') {
      // Jump to the closing quote: one not preceded by an odd number of backslashes.
      let end = text.indexOf('"', match.index + 1);
      while (end !== -1 && isEscaped(text, end)) end = text.indexOf('"', end + 1);
      if (end === -1) return undefined;
      structural.lastIndex = end + 1;
    } else if (char === '{' || char === '[') {
      depth++;
      if (depth > maxDepth) return match.index;
    } else depth--;
  }
  return undefined;
}

function isEscaped(text: string, quote: number): boolean {
  let backslashes = 0;
  for (let index = quote - 1; index >= 0 && text.charCodeAt(index) === 0x5c; index--) backslashes++;
  return backslashes % 2 === 1;
}

/** Every `$ref` with the pointer of the object holding it (the value is a tree here, its depth checked). */
function collectSites(root: unknown): RefSite[] {
  const sites: RefSite[] = [];
  const stack: Array<{ value: unknown; pointer: string }> = [{ value: root, pointer: '' }];
  while (stack.length > 0) {
    const { value, pointer } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) {
        const child: unknown = value[index];
        if (typeof child === 'object' && child !== null)
          stack.push({ value: child, pointer: `${pointer}/${index}` });
      }
      continue;
    }
    const object = value as Record<string, unknown>;
    if (Object.hasOwn(object, '$ref') && typeof object.$ref === 'string')
      sites.push({ pointer, ref: object.$ref });
    const keys = Object.keys(object);
    for (let index = keys.length - 1; index >= 0; index--) {
      const child = object[keys[index]!];
      if (typeof child === 'object' && child !== null)
        stack.push({ value: child, pointer: appendPointer(pointer, keys[index]!) });
    }
  }
  return sites;
}
