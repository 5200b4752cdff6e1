import { pointerFromSegments } from './json-pointer.js';
import type { DefinitionIssue } from './types.js';
import { ErrorCode } from '../../../core/contracts/error-codes.js';
import { GatehouseError } from '../../../core/errors/gatehouse-error.js';

/**
 * One walk over the whole parsed document that
 * - refuses nesting deeper than `maxDepth` (counted through YAML aliases), so later recursive
 *   consumers cannot overflow the stack;
 * - when values may be shared (YAML with aliases: an alias is the same object as its anchor, so the
 *   document is a DAG), refuses alias bombs by counting, with memoisation and never by expanding,
 *   the values that aliases add, and refuses self-containing aliases (js-yaml builds a real cycle
 *   for `&a [*a]`);
 * - collects every `$ref` string with the pointer where it was first met.
 * Recursion depth is bounded by `maxDepth`.
 */

export const DEFAULT_MAX_ALIAS_EXPANSION = 5_000_000;

export interface RefSite {
  /** Pointer of the object holding the `$ref`. */
  pointer: string;
  ref: string;
}

export interface ScanOptions {
  maxDepth: number;
  maxAliasExpansion: number;
  /** True only for YAML that contains aliases; otherwise the cheaper tree walk is used. */
  valuesMayBeShared: boolean;
}

export type ScanResult = { ok: true; refSites: RefSite[] } | { ok: false; error: DefinitionIssue };

class ScanAborted extends GatehouseError {
  constructor(readonly issue: DefinitionIssue) {
    super(ErrorCode.GH_ERR_INVALID_DOCUMENT, issue.message);
  }
}

export function scanDocument(root: unknown, options: ScanOptions): ScanResult {
  const walker = new DocumentWalker(options);
  try {
    if (!options.valuesMayBeShared) walker.visitTree(root, 0);
    else if (typeof root === 'object' && root !== null) walker.visitShared(root, 0);
  } catch (error) {
    if (error instanceof ScanAborted) return { ok: false, error: error.issue };
    throw error;
  }
  return { ok: true, refSites: walker.refSites };
}

interface Measured {
  /** Number of values in the subtree once expanded, the node itself included. */
  size: number;
  /** Nesting levels below the node once expanded. */
  height: number;
}

const IN_PROGRESS: Measured = Object.freeze({ size: 0, height: 0 });

class DocumentWalker {
  readonly refSites: RefSite[] = [];
  // Segments of the current position, turned into a pointer only when one is needed.
  private readonly path: Array<string | number> = [];
  // An object's entry is IN_PROGRESS while its children are visited, so meeting it again is a cycle.
  private readonly measured = new Map<object, Measured>();
  private aliasExpansion = 0;

  constructor(private readonly options: ScanOptions) {}

  /** For values that are a tree (JSON, YAML without aliases): depth limit and `$ref`s only. */
  visitTree(value: unknown, depth: number): void {
    if (typeof value !== 'object' || value === null) return;
    if (depth >= this.options.maxDepth)
      this.abort(`the document nests deeper than ${this.options.maxDepth} levels`);
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index += 1) {
        const child: unknown = value[index];
        if (typeof child !== 'object' || child === null) continue;
        this.path.push(index);
        this.visitTree(child, depth + 1);
        this.path.pop();
      }
      return;
    }
    const object = value as Record<string, unknown>;
    this.recordRef(object);
    for (const key of Object.keys(object)) {
      const child = object[key];
      if (typeof child !== 'object' || child === null) continue;
      this.path.push(key);
      this.visitTree(child, depth + 1);
      this.path.pop();
    }
  }

  /** For YAML with aliases: also measures what the aliases add once expanded. */
  visitShared(value: object, depth: number): Measured {
    const known = this.measured.get(value);
    if (known === IN_PROGRESS) this.abort('a YAML alias makes this node contain itself');
    if (known) return this.reuse(known, depth);
    if (depth >= this.options.maxDepth)
      this.abort(`the document nests deeper than ${this.options.maxDepth} levels`);
    this.measured.set(value, IN_PROGRESS);
    const result: Measured = { size: 1, height: 0 };
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index += 1)
        this.visitSharedChild(value[index], index, depth, result);
    } else {
      const object = value as Record<string, unknown>;
      this.recordRef(object);
      for (const key of Object.keys(object)) this.visitSharedChild(object[key], key, depth, result);
    }
    this.measured.set(value, result);
    return result;
  }

  private visitSharedChild(child: unknown, segment: string | number, depth: number, parent: Measured): void {
    if (typeof child !== 'object' || child === null) {
      parent.size += 1;
      return;
    }
    this.path.push(segment);
    const measured = this.visitShared(child, depth + 1);
    this.path.pop();
    parent.size += measured.size;
    if (measured.height + 1 > parent.height) parent.height = measured.height + 1;
  }

  private reuse(known: Measured, depth: number): Measured {
    if (depth + known.height >= this.options.maxDepth) {
      this.abort(
        `the document nests deeper than ${this.options.maxDepth} levels once YAML aliases are expanded`,
      );
    }
    this.aliasExpansion += known.size;
    if (this.aliasExpansion > this.options.maxAliasExpansion) {
      this.abort(
        `YAML aliases add more than ${this.options.maxAliasExpansion.toLocaleString('en-US')} values to the ` +
          'document once expanded; refused as an alias bomb ("billion laughs")',
      );
    }
    return known;
  }

  private recordRef(object: Record<string, unknown>): void {
    if (Object.hasOwn(object, '$ref') && typeof object.$ref === 'string') {
      this.refSites.push({ pointer: pointerFromSegments(this.path), ref: object.$ref });
    }
  }

  private abort(message: string): never {
    throw new ScanAborted({ pointer: pointerFromSegments(this.path), message });
  }
}
