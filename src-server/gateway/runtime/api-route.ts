import { normalizeBasePath } from '../../core/paths/base-path.js';
import {
  compareSpecificityKeys,
  compilePathTemplate,
  decodeSegment,
  specificityKey,
  templateShape,
  type CompiledPathTemplate,
  type SpecificityKey,
} from '../../core/paths/path-template.js';
import { matchWeight, templateOfPathKey } from '../../core/paths/request-match.js';
import type { CompileEntryResult } from '../../core/passthrough/compile-entry.js';
import type { OpenedEntry } from '../../core/passthrough/sealed-headers.js';
import type { EnvVariableShape, TemplateCompileContext } from '../../core/template/index.js';
import type {
  ApiRecord,
  PassthroughEntry,
  PassthroughRecord,
  StoredPassthroughEntry,
} from '../../core/model/config-model.js';
import { compileCors } from '../cors/cors.js';
import { missingEnvReferences } from './missing-references.js';
import { PathIndex } from './path-index.js';
import { withEntryDefaults } from '../../core/passthrough/forwarding/index.js';
import {
  ALL_OPERATIONS_METHODS,
  ALL_OPERATIONS_OPERATION,
  type ApiRoute,
  type Endpoint,
  type MethodRoute,
  type PathRoute,
} from './route-table.js';

export type CompileEntry = (
  entry: PassthroughEntry,
  context: Omit<TemplateCompileContext, 'env'>,
) => CompileEntryResult;

/** A stored entry with its sealed header values in clear (see passthrough/sealed-headers.ts). */
export type OpenEntry = (entry: StoredPassthroughEntry) => OpenedEntry;

/** What a client is told about an entry holding a sealed value this data dir's key can't decrypt. */
export const UNREADABLE_ENTRY_DETAIL =
  'A header value of the passthrough configuration of this endpoint cannot be decrypted; type it again in the editor.';

export interface BuiltApiRoute {
  api: ApiRoute;
  /** The operations served: keys of operation entries, and `*` for `All operations`. */
  operations: string[];
  /** Entries that are not deployed; `unreadable` when a sealed header value can't be decrypted. */
  invalid: { operation: string; errors: number; unreadable?: true }[];
}

/** The route of one API: its operation entries by path template and method, and its `All operations` entry. */
export function buildApiRoute(
  api: ApiRecord,
  passthrough: PassthroughRecord | undefined,
  shapes: Readonly<Record<string, EnvVariableShape>>,
  compile: CompileEntry,
  open: OpenEntry,
): BuiltApiRoute {
  const operations: string[] = [];
  const invalid: BuiltApiRoute['invalid'] = [];
  const endpointOf = (
    operation: string,
    entry: StoredPassthroughEntry,
    context: Omit<TemplateCompileContext, 'env'>,
  ) => {
    const opened = open(withEntryDefaults(entry));
    const filled = opened.entry;
    // An entry missing a header value it should send is not deployed at all.
    const result: CompileEntryResult = opened.ok
      ? compile(filled, context)
      : { ok: false, errors: opened.errors };
    if (!result.ok) {
      invalid.push({ operation, errors: result.errors.length, ...(opened.ok ? {} : { unreadable: true }) });
    }
    operations.push(operation);
    const endpoint: Endpoint = {
      operation,
      entry: filled,
      compiled: result.ok ? result.compiled : undefined,
      errors: result.ok ? [] : result.errors,
      unavailable: result.ok
        ? undefined
        : opened.ok
          ? unavailableDetail(filled, shapes)
          : UNREADABLE_ENTRY_DETAIL,
      cors: compileCors(filled.cors),
    };
    return endpoint;
  };

  const allOperations = passthrough?.allOperations
    ? endpointOf(ALL_OPERATIONS_OPERATION, passthrough.allOperations, {
        pathParameters: [],
        scope: 'allOperations',
      })
    : undefined;

  // Operations grouped by what their templates match (`/a/{id}` and `/a/{x}` together), then by method.
  const byShape = new Map<
    string,
    { template: string; matcher: CompiledPathTemplate; byMethod: Map<string, MethodRoute[]> }
  >();
  for (const operation of api.operations) {
    const entry = passthrough?.operations[operation.key];
    if (!entry) continue;
    const template = templateOfPathKey(operation.path);
    const matcher = compilePathTemplate(template);
    if (!matcher) continue;
    const endpoint = endpointOf(operation.key, entry, {
      pathParameters: operation.pathParameters,
      scope: 'operation',
    });
    const shape = templateShape(template);
    const group = byShape.get(shape) ?? { template, matcher, byMethod: new Map<string, MethodRoute[]>() };
    byShape.set(shape, group);
    const routes = group.byMethod.get(operation.method) ?? [];
    routes.push({
      endpoint,
      matcher,
      ...(operation.requestMatch ? { requestMatch: operation.requestMatch } : {}),
    });
    group.byMethod.set(operation.method, routes);
  }

  // Specificity keys are worked out once per template: a sort compares each template many times.
  const keyed: { key: SpecificityKey; path: PathRoute }[] = [];
  for (const { template, matcher, byMethod } of byShape.values()) {
    // The most conditions first; an operation without conditions takes what the others leave (sort is stable).
    for (const routes of byMethod.values())
      routes.sort((a, b) => matchWeight(b.requestMatch) - matchWeight(a.requestMatch));
    const served = allOperations
      ? new Set([...byMethod.keys(), ...ALL_OPERATIONS_METHODS])
      : new Set(byMethod.keys());
    keyed.push({
      key: specificityKey(template),
      path: { template, matcher, byMethod, servedMethods: [...served] },
    });
  }
  const paths = keyed.sort((a, b) => compareSpecificityKeys(a.key, b.key)).map(({ path }) => path);

  const basePath = normalizeBasePath(api.basePath);
  return {
    api: {
      id: api.id,
      name: api.name,
      basePath,
      baseSegments: basePath === '/' ? [] : basePath.slice(1).split('/').map(decodeSegment),
      paths,
      pathIndex: new PathIndex(paths),
      allOperations,
    },
    operations,
    invalid,
  };
}

function unavailableDetail(
  entry: PassthroughEntry,
  shapes: Readonly<Record<string, EnvVariableShape>>,
): string {
  const missing = missingEnvReferences(entry, shapes);
  if (missing.length === 0) return 'The passthrough configuration of this endpoint is not valid.';
  return `The passthrough configuration of this endpoint refers to ${missing.join(', ')}, which the environment does not define.`;
}
