import type { EnvironmentVariable } from '../../../../api/types.js';

/** A reference the editor offers inside `{{ }}`. */
export interface ReferenceItem {
  /** As shown: `#env.backend.url`, `#api.QueryParameters.<name>`. */
  label: string;
  /** As inserted. */
  insertText: string;
  detail: string;
  /** The insert text is a prefix the user completes (`#api.QueryParameters.`): no closing `}}` yet. */
  partial?: boolean;
}

/** What the selected item's templates may refer to besides the variables. */
export type ReferenceScope = { kind: 'allOperations' } | { kind: 'operation'; pathParameters: string[] };

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The canonical spelling the template engine lists: `.name`, or `["name"]` for other names. */
export function formatReference(root: string, names: readonly string[]): string {
  let text = `#${root}`;
  for (const name of names) text += IDENTIFIER.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
  return text;
}

function reference(label: string, detail: string): ReferenceItem {
  return { label, insertText: label, detail };
}

function variableItems(variables: readonly EnvironmentVariable[]): ReferenceItem[] {
  const items: ReferenceItem[] = [];
  for (const variable of [...variables].sort((a, b) => a.name.localeCompare(b.name))) {
    if (variable.kind === 'value') {
      const type = variable.type ?? 'string';
      items.push(reference(formatReference('env', [variable.name]), `Environment variable (${type})`));
      continue;
    }
    for (const member of variable.members ?? []) {
      items.push(
        reference(
          formatReference('env', [variable.name, member.name]),
          `Member of ${variable.name} (${member.type})`,
        ),
      );
    }
  }
  return items;
}

/**
 * The references of the template language for one editor item: every `#env` variable (members of groups), and
 * the `#api` values of the incoming request, with the selected operation's path parameters.
 */
export function buildReferenceCatalog(
  variables: readonly EnvironmentVariable[],
  scope: ReferenceScope,
): ReferenceItem[] {
  const parameters = scope.kind === 'operation' ? scope.pathParameters : [];
  return [
    ...variableItems(variables),
    reference('#api.BasePath', 'API base path from the API specification, without the server name'),
    reference('#api.OperationPath', 'Path of the incoming request below the base path'),
    ...parameters.map((name) =>
      reference(formatReference('api', ['OperationPath', name]), 'Path parameter of the operation'),
    ),
    reference('#api.QueryParameters', 'The full query string of the incoming request'),
    {
      label: '#api.QueryParameters.<name>',
      insertText: '#api.QueryParameters.',
      detail: 'Value of the named query parameter',
      partial: true,
    },
  ];
}
