import type { BoundReference } from './bound.js';
import { formatReference } from './reference-format.js';
import { blockHelperMessage } from './supported.js';
import type { SourceError } from './source-error.js';
import type { TemplateCompileContext } from './types.js';

/**
 * Resolves `#env…` and `#api…` references against the compile context. A reference takes as many of the
 * following `.name` / `["name"]` parts as it can use; what is left are members of the resulting text.
 *
 * - `#env.<variable>` for a plain-value variable, `#env.<variable>.<member>` for a group.
 * - `#api.BasePath`, `#api.OperationPath`, `#api.QueryParameters`.
 * - `#api.OperationPath.<pathParameter>` and `#api.QueryParameters.<name>`: after these two, a `.Name` that is
 *   not a method call always names a parameter (so `#api.QueryParameters.Length` is the parameter `Length`;
 *   write `(#api.QueryParameters).Length` for the length of the query string).
 * - `["…"]` takes any name, e.g. `#api.QueryParameters["page-size"]`, `#env["my-variable"]`.
 */

export interface ReferencePart {
  name: string;
  start: number;
  end: number;
  bracket: boolean;
}

export interface ReferenceRoot {
  name: string;
  start: number;
  end: number;
}

export type ReferenceResolution =
  { ok: true; node: BoundReference; consumed: number } | { ok: false; error: SourceError };

const API_FIELDS = ['BasePath', 'OperationPath', 'QueryParameters'] as const;
const MAX_LISTED_NAMES = 12;

export function resolveReference(
  root: ReferenceRoot,
  parts: readonly ReferencePart[],
  context: TemplateCompileContext,
): ReferenceResolution {
  if (root.name === 'env') return resolveEnv(root, parts, context);
  if (root.name === 'api') return resolveApi(root, parts, context);
  const at = { position: root.start, length: root.end - root.start };
  const blockHelper = blockHelperMessage(root.name);
  if (blockHelper !== undefined) return fail(at, blockHelper);
  const hint =
    root.name.toLowerCase() === 'env' || root.name.toLowerCase() === 'api'
      ? ` (did you mean #${root.name.toLowerCase()}?)`
      : '';
  return fail(at, `unknown reference '#${root.name}'${hint}; references start with #env or #api`);
}

function resolveEnv(
  root: ReferenceRoot,
  parts: readonly ReferencePart[],
  context: TemplateCompileContext,
): ReferenceResolution {
  const variablePart = parts[0];
  if (variablePart === undefined) {
    return fail(spanOf(root), "'#env' needs a variable name: #env.<variable> or #env.<variable>.<member>");
  }
  const variables = context.env.variables;
  const variable = Object.hasOwn(variables, variablePart.name) ? variables[variablePart.name] : undefined;
  if (variable === undefined) {
    return fail(
      spanOf(variablePart),
      `unknown environment variable '${variablePart.name}'${suggest(variablePart.name, Object.keys(variables), 'environment variables')}`,
    );
  }
  if (variable.kind === 'value') {
    return {
      ok: true,
      consumed: 1,
      node: envNode(root, variablePart, undefined),
    };
  }
  const memberPart = parts[1];
  const base = formatReference('env', [variablePart.name]);
  if (memberPart === undefined) {
    return fail(
      { position: root.start, length: variablePart.end - root.start },
      `${base} is a group of values; name one of its members: ${base}.<member>${listNames(variable.members, 'members')}`,
    );
  }
  if (!variable.members.includes(memberPart.name)) {
    return fail(
      spanOf(memberPart),
      `${base} has no member '${memberPart.name}'${suggest(memberPart.name, variable.members, 'members')}`,
    );
  }
  return { ok: true, consumed: 2, node: envNode(root, memberPart, variablePart.name) };
}

function envNode(
  root: ReferenceRoot,
  last: ReferencePart,
  variableOfMember: string | undefined,
): BoundReference {
  const variable = variableOfMember ?? last.name;
  const member = variableOfMember === undefined ? undefined : last.name;
  return {
    op: 'env',
    type: 'string',
    variable,
    member,
    reference: formatReference('env', member === undefined ? [variable] : [variable, member]),
    start: root.start,
    end: last.end,
  };
}

function resolveApi(
  root: ReferenceRoot,
  parts: readonly ReferencePart[],
  context: TemplateCompileContext,
): ReferenceResolution {
  const fieldPart = parts[0];
  const fieldList = API_FIELDS.map((field) => `#api.${field}`).join(', ');
  if (fieldPart === undefined) return fail(spanOf(root), `'#api' needs a field: ${fieldList}`);
  const field = API_FIELDS.find((name) => name === fieldPart.name);
  if (field === undefined || fieldPart.bracket) {
    const nearCase = API_FIELDS.find((name) => name.toLowerCase() === fieldPart.name.toLowerCase());
    const hint = nearCase === undefined ? '' : ` (did you mean #api.${nearCase}?)`;
    return fail(
      spanOf(fieldPart),
      `unknown reference '#api.${fieldPart.name}'${hint}; supported: ${fieldList}`,
    );
  }
  const node = (apiField: BoundReference & { op: 'api' }): ReferenceResolution => ({
    ok: true,
    consumed: apiField.name === undefined ? 1 : 2,
    node: apiField,
  });
  const reference = (names: string[]): string => formatReference('api', [field, ...names]);
  const parameter = parts[1];
  if (field === 'BasePath' || parameter === undefined) {
    const apiField =
      field === 'BasePath' ? 'basePath' : field === 'OperationPath' ? 'operationPath' : 'queryString';
    return node({
      op: 'api',
      type: 'string',
      field: apiField,
      name: undefined,
      reference: reference([]),
      start: root.start,
      end: fieldPart.end,
    });
  }
  if (field === 'QueryParameters') {
    return node({
      op: 'api',
      type: 'string',
      field: 'queryParameter',
      name: parameter.name,
      reference: reference([parameter.name]),
      start: root.start,
      end: parameter.end,
    });
  }
  if (context.scope === 'allOperations') {
    return fail(
      spanOf(parameter),
      "'All operations' has no path parameters; #api.OperationPath is the remainder of the incoming path below the base path",
    );
  }
  if (!context.pathParameters.includes(parameter.name)) {
    const message =
      context.pathParameters.length === 0
        ? `this operation has no path parameters, so '${parameter.name}' is unknown`
        : `unknown path parameter '${parameter.name}'${suggest(parameter.name, context.pathParameters, 'path parameters')}`;
    return fail(spanOf(parameter), message);
  }
  return node({
    op: 'api',
    type: 'string',
    field: 'pathParameter',
    name: parameter.name,
    reference: reference([parameter.name]),
    start: root.start,
    end: parameter.end,
  });
}

function suggest(name: string, known: readonly string[], what: string): string {
  const nearCase = known.find((candidate) => candidate.toLowerCase() === name.toLowerCase());
  const hint = nearCase === undefined ? '' : ` (did you mean '${nearCase}'?)`;
  return `${hint}${listNames(known, what)}`;
}

function listNames(known: readonly string[], what: string): string {
  if (known.length === 0) return `; there are no ${what}`;
  const shown = known.slice(0, MAX_LISTED_NAMES).join(', ');
  const more = known.length > MAX_LISTED_NAMES ? `, … (${known.length - MAX_LISTED_NAMES} more)` : '';
  return `; known ${what}: ${shown}${more}`;
}

function spanOf(item: { start: number; end: number }): { position: number; length: number } {
  return { position: item.start, length: Math.max(1, item.end - item.start) };
}

function fail(at: { position: number; length: number }, message: string): ReferenceResolution {
  return { ok: false, error: { ...at, message } };
}
