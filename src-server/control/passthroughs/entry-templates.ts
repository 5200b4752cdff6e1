import { compilePassthroughEntry } from '../../core/passthrough/compile-entry.js';
import type { EnvVariableShape } from '../../core/template/index.js';
import type { ApiRecord, PassthroughEntry } from '../../core/model/config-model.js';
import {
  entryCompileContext,
  parseEnvReference,
  type EnvReference,
} from '../../core/passthrough/passthrough-references.js';
import type { FieldErrors } from '../common/editor-paths.js';
import { describeTemplateError, fieldOfPlace } from '../../core/template/template-errors.js';

/**
 * Compiles an entry's four sections and header values against what they may refer to (the variables, and the
 * operation's path parameters). Errors are keyed by field (`operations["GET /orders/{id}"].target.section3`),
 * each message naming the section and the 0-based position. Returns the `#env` references used.
 */
export function compileEntryTemplates(
  entry: PassthroughEntry,
  options: {
    api: ApiRecord;
    operationKey: string | undefined;
    shapes: Record<string, EnvVariableShape>;
    at: (string | number)[];
    /** Header entries already refused by a rule: their values are not compiled. */
    skipHeaders: ReadonlySet<number>;
  },
  errors: FieldErrors,
): EnvReference[] {
  const { api, operationKey, shapes, at, skipHeaders } = options;
  const compilable: PassthroughEntry =
    skipHeaders.size === 0
      ? entry
      : {
          ...entry,
          headers: entry.headers.map((header, index) =>
            skipHeaders.has(index) ? { action: 'Remove', name: header.name } : header,
          ),
        };
  const compiled = compilePassthroughEntry(compilable, entryCompileContext(shapes, api, operationKey));
  if (!compiled.ok) {
    for (const error of compiled.errors)
      errors.add([...at, ...fieldOfPlace(error.place)], describeTemplateError(error));
    return [];
  }
  return compiled.compiled.references.flatMap((text) => parseEnvReference(text) ?? []);
}
