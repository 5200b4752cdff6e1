import { compilePassthroughEntry } from '../../core/passthrough/compile-entry.js';
import { openEntry, type HeaderUnsealer } from '../../core/passthrough/sealed-headers.js';
import type { EnvVariableShape } from '../../core/template/index.js';
import { entryCompileContext } from '../../core/passthrough/passthrough-references.js';
import { describeTemplateError } from '../../core/template/template-errors.js';
import type {
  ApiOperationRecord,
  ApiRecord,
  PassthroughRecord,
  StoredPassthroughEntry,
} from '../../core/model/config-model.js';
import type { OperationsDiff } from './openapi/index.js';

export interface DroppedEntry {
  operation: string;
  reason: string;
}

export interface CarriedEntries {
  operations: Record<string, StoredPassthroughEntry>;
  dropped: DroppedEntry[];
}

/**
 * Moves a passthrough's per-operation entries to a re-imported definition: an operation that is still there
 * (even with renamed path parameters) keeps its entry under its new key, provided its templates still
 * compile against it; the others are dropped and reported. Entries move as stored (sealed values stay sealed);
 * a header value that can't be decrypted is left out of the check (the gateway reports that entry).
 */
export function carryPassthroughEntries(
  passthrough: PassthroughRecord,
  diff: OperationsDiff<ApiOperationRecord>,
  api: ApiRecord,
  shapes: Record<string, EnvVariableShape>,
  box: HeaderUnsealer,
): CarriedEntries {
  const operations: Record<string, StoredPassthroughEntry> = {};
  const dropped: DroppedEntry[] = [];
  for (const { before, after } of diff.kept) {
    if (!Object.hasOwn(passthrough.operations, before.key)) continue;
    const entry = passthrough.operations[before.key]!;
    const compiled = compilePassthroughEntry(
      openEntry(entry, box).entry,
      entryCompileContext(shapes, api, after.key),
    );
    if (compiled.ok) operations[after.key] = entry;
    else {
      const first = compiled.errors[0];
      dropped.push({
        operation: before.key,
        reason: `its templates no longer fit ${after.key}: ${first ? describeTemplateError(first) : 'compilation failed'}`,
      });
    }
  }
  for (const operation of diff.removed) {
    if (Object.hasOwn(passthrough.operations, operation.key)) {
      dropped.push({ operation: operation.key, reason: 'the operation is no longer in the API' });
    }
  }
  return { operations, dropped };
}
