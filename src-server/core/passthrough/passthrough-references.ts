import { compilePassthroughEntry } from './compile-entry.js';
import { shapeOf } from './environment-scope.js';
import { openEntry, type HeaderUnsealer } from './sealed-headers.js';
import type { EnvVariableShape, TemplateCompileContext } from '../template/index.js';
import type {
  ApiRecord,
  ConfigData,
  PassthroughRecord,
  StoredPassthroughEntry,
} from '../model/config-model.js';

/** `#env.<variable>` or `#env.<variable>.<member>` as a template uses it. */
export interface EnvReference {
  /** As listed by the template engine, e.g. `#env.backend.url`. */
  text: string;
  variable: string;
  member?: string;
}

export const ALL_OPERATIONS_KEY = 'allOperations';

export function envShapes(data: Readonly<ConfigData>): Record<string, EnvVariableShape> {
  return Object.fromEntries(data.environmentVariables.map((variable) => [variable.name, shapeOf(variable)]));
}

/** What the templates of one editor entry may refer to: the variables, and the operation's path parameters. */
export function entryCompileContext(
  shapes: Record<string, EnvVariableShape>,
  api: ApiRecord,
  operationKey: string | undefined,
): TemplateCompileContext {
  if (operationKey === undefined)
    return { env: { variables: shapes }, pathParameters: [], scope: 'allOperations' };
  const operation = api.operations.find((candidate) => candidate.key === operationKey);
  return { env: { variables: shapes }, pathParameters: operation?.pathParameters ?? [], scope: 'operation' };
}

/** `#env.a.b`, `#env["my-var"]` → its names; undefined for other references. */
export function parseEnvReference(text: string): EnvReference | undefined {
  if (!text.startsWith('#env')) return undefined;
  const names: string[] = [];
  const part = /\.([A-Za-z_][A-Za-z0-9_]*)|\[("(?:[^"\\]|\\.)*")\]/y;
  part.lastIndex = 4;
  while (part.lastIndex < text.length) {
    const match = part.exec(text);
    if (!match) return undefined;
    names.push(match[1] ?? (JSON.parse(match[2]!) as string));
  }
  const [variable, member] = names;
  if (variable === undefined || names.length > 2) return undefined;
  return member === undefined ? { text, variable } : { text, variable, member };
}

// Entries are replaced, never changed in place, so a compiled entry's references stay valid for its context.
const referenceCache = new WeakMap<
  StoredPassthroughEntry,
  { contextKey: string; references: EnvReference[] }
>();

/**
 * The `#env` references of one entry (sealed header values included); an entry that no longer compiles refers
 * to nothing, nor does a sealed value that can't be decrypted.
 */
export function envReferencesOfEntry(
  entry: StoredPassthroughEntry,
  context: TemplateCompileContext,
  box: HeaderUnsealer,
): EnvReference[] {
  const contextKey = JSON.stringify(context);
  const cached = referenceCache.get(entry);
  if (cached?.contextKey === contextKey) return cached.references;
  const compiled = compilePassthroughEntry(openEntry(entry, box).entry, context);
  const references = compiled.ok
    ? compiled.compiled.references.flatMap((text) => parseEnvReference(text) ?? [])
    : [];
  referenceCache.set(entry, { contextKey, references });
  return references;
}

/** Every entry of a passthrough with the key the editor shows it under (`allOperations` or an operation key). */
export function entriesOf(passthrough: PassthroughRecord): [string, StoredPassthroughEntry][] {
  const entries = Object.entries(passthrough.operations);
  return passthrough.allOperations ? [[ALL_OPERATIONS_KEY, passthrough.allOperations], ...entries] : entries;
}

/** The distinct `#env` references of a whole passthrough configuration. */
export function envReferencesOfPassthrough(
  data: Readonly<ConfigData>,
  passthrough: PassthroughRecord,
  box: HeaderUnsealer,
  shapes: Record<string, EnvVariableShape> = envShapes(data),
): EnvReference[] {
  const api = data.apis.find((candidate) => candidate.id === passthrough.apiId);
  if (!api) return [];
  const byText = new Map<string, EnvReference>();
  for (const [key, entry] of entriesOf(passthrough)) {
    const context = entryCompileContext(shapes, api, key === ALL_OPERATIONS_KEY ? undefined : key);
    for (const reference of envReferencesOfEntry(entry, context, box)) byText.set(reference.text, reference);
  }
  return [...byText.values()];
}

export interface PassthroughUsage {
  passthrough: PassthroughRecord;
  api: ApiRecord;
  references: EnvReference[];
}

/** Every saved passthrough with its API and `#env` references. */
export function passthroughUsages(data: Readonly<ConfigData>, box: HeaderUnsealer): PassthroughUsage[] {
  const shapes = envShapes(data);
  return data.passthroughs.flatMap((passthrough) => {
    const api = data.apis.find((candidate) => candidate.id === passthrough.apiId);
    return api
      ? [{ passthrough, api, references: envReferencesOfPassthrough(data, passthrough, box, shapes) }]
      : [];
  });
}
