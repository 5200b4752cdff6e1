import {
  compilePathTemplate,
  compareTemplateSpecificity,
  normalizeBasePath,
} from '../../apis/openapi/index.js';
import { decodeSegment } from '../../apis/openapi/path-template.js';
import type { CompileEntryResult } from '../../passthrough/compile-entry.js';
import type { EnvVariableShape, TemplateCompileContext } from '../../passthrough/template/index.js';
import type { ApiRecord, PassthroughEntry, PassthroughRecord } from '../../store/config-model.js';
import { compileCors } from '../cors.js';
import { missingEnvReferences } from './missing-references.js';
import { withEntryDefaults } from '../../passthrough/forwarding/index.js';
import {
  ALL_OPERATIONS_METHODS,
  ALL_OPERATIONS_OPERATION,
  type ApiRoute,
  type Endpoint,
  type PathRoute,
} from './route-table.js';

export type CompileEntry = (
  entry: PassthroughEntry,
  context: Omit<TemplateCompileContext, 'env'>,
) => CompileEntryResult;

export interface BuiltApiRoute {
  api: ApiRoute;
  /** The operations served: keys of operation entries, and `*` for `All operations`. */
  operations: string[];
  invalid: { operation: string; errors: number }[];
}

/** The route of one API: its operation entries by path template and method, and its `All operations` entry. */
export function buildApiRoute(
  api: ApiRecord,
  passthrough: PassthroughRecord | undefined,
  shapes: Readonly<Record<string, EnvVariableShape>>,
  compile: CompileEntry,
): BuiltApiRoute {
  const operations: string[] = [];
  const invalid: BuiltApiRoute['invalid'] = [];
  const endpointOf = (
    operation: string,
    entry: PassthroughEntry,
    context: Omit<TemplateCompileContext, 'env'>,
  ) => {
    const filled = withEntryDefaults(entry);
    const result = compile(filled, context);
    if (!result.ok) invalid.push({ operation, errors: result.errors.length });
    operations.push(operation);
    const endpoint: Endpoint = {
      operation,
      entry: filled,
      compiled: result.ok ? result.compiled : undefined,
      errors: result.ok ? [] : result.errors,
      unavailable: result.ok ? undefined : unavailableDetail(filled, shapes),
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

  const byPath = new Map<string, Map<string, Endpoint>>();
  for (const operation of api.operations) {
    const entry = passthrough?.operations[operation.key];
    if (!entry) continue;
    const endpoint = endpointOf(operation.key, entry, {
      pathParameters: operation.pathParameters,
      scope: 'operation',
    });
    const methods = byPath.get(operation.path) ?? new Map<string, Endpoint>();
    methods.set(operation.method, endpoint);
    byPath.set(operation.path, methods);
  }

  const paths: PathRoute[] = [];
  for (const [template, byMethod] of byPath) {
    const matcher = compilePathTemplate(template);
    if (!matcher) continue;
    const served = allOperations
      ? new Set([...byMethod.keys(), ...ALL_OPERATIONS_METHODS])
      : new Set(byMethod.keys());
    paths.push({ template, matcher, byMethod, servedMethods: [...served] });
  }
  paths.sort((a, b) => compareTemplateSpecificity(a.template, b.template));

  const basePath = normalizeBasePath(api.basePath);
  return {
    api: {
      id: api.id,
      name: api.name,
      basePath,
      baseSegments: basePath === '/' ? [] : basePath.slice(1).split('/').map(decodeSegment),
      paths,
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
