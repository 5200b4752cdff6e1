import { formatReference } from './reference-format.js';
import type { TemplateCompileContext } from './types.js';

/** What the template language supports: one list for error messages, the editor's autocomplete and docs. */

export const STRING_MEMBERS =
  'ToUpper(), ToLower(), Trim(), Substring(start[, length]), Replace(old, new), Contains(text), StartsWith(text), EndsWith(text), Length, ToString()';
export const DATETIME_MEMBERS = 'ToString([format]), AddDays(n), AddHours(n), AddMinutes(n)';
export const GUID_MEMBERS = 'ToString([format: "D", "N", "B" or "P"])';
export const STATIC_FUNCTIONS =
  'DateTime.UtcNow, DateTime.Now, Guid.NewGuid(), Convert.ToBase64String(Encoding.UTF8.GetBytes(text)), Uri.EscapeDataString(text), string.IsNullOrEmpty(text), string.IsNullOrWhiteSpace(text)';

const HANDLEBARS_BLOCK_HELPERS: ReadonlySet<string> = new Set([
  'if',
  'each',
  'unless',
  'with',
  'else',
  'lookup',
  'log',
]);

/** The message for Handlebars' own block syntax (`{{#if …}}`, `{{/if}}`), which the language replaces with `?:`. */
export function blockHelperMessage(name: string): string | undefined {
  if (!HANDLEBARS_BLOCK_HELPERS.has(name)) return undefined;
  return `Handlebars block helpers such as {{#${name}}} are not supported; use the conditional operator: condition ? a : b`;
}

export function describeSupported(): string {
  return [
    'Supported inside {{ }}:',
    'references #env.<variable>, #env.<variable>.<member>, #api.BasePath, #api.OperationPath, #api.OperationPath.<pathParameter>, #api.QueryParameters, #api.QueryParameters.<name> (or ["name"] for any name);',
    'literals "text" (C# escapes), @"verbatim", \'c\', whole numbers, true, false, null;',
    'operators + == != < > <= >= && || ! ?: ?? and parentheses;',
    `text members ${STRING_MEMBERS};`,
    `${STATIC_FUNCTIONS}; DateTime members ${DATETIME_MEMBERS}; Guid members ${GUID_MEMBERS}.`,
  ].join(' ');
}

export type CompletionKind = 'reference' | 'function' | 'method' | 'property' | 'keyword';

export interface CompletionItem {
  label: string;
  kind: CompletionKind;
  /** Text to insert inside `{{ }}`. */
  insertText: string;
  detail: string;
}

const STATIC_COMPLETIONS: readonly CompletionItem[] = [
  item('#api.BasePath', 'reference', 'API base path from the API specification, without the server name'),
  item('#api.OperationPath', 'reference', 'Path of the incoming request below the base path'),
  item('#api.QueryParameters', 'reference', 'The full query string of the incoming request, without ?'),
  item(
    '#api.QueryParameters.<name>',
    'reference',
    'Value of the named query parameter (null when absent)',
    '#api.QueryParameters.',
  ),
  item('DateTime.UtcNow', 'property', 'Current UTC time; format with .ToString("yyyy-MM-dd")'),
  item('DateTime.Now', 'property', "Current time in the server's time zone"),
  item('Guid.NewGuid()', 'function', 'A new random GUID'),
  item(
    'Convert.ToBase64String(Encoding.UTF8.GetBytes(…))',
    'function',
    'Base64 of text, e.g. for a Basic authorization header',
    'Convert.ToBase64String(Encoding.UTF8.GetBytes())',
  ),
  item('Uri.EscapeDataString(…)', 'function', 'Percent-encodes text', 'Uri.EscapeDataString()'),
  item('string.IsNullOrEmpty(…)', 'function', 'true when text is null or empty', 'string.IsNullOrEmpty()'),
  item(
    'string.IsNullOrWhiteSpace(…)',
    'function',
    'true when text is null, empty or only spaces',
    'string.IsNullOrWhiteSpace()',
  ),
  ...[
    ['ToUpper()', 'Text in upper case'],
    ['ToLower()', 'Text in lower case'],
    ['Trim()', 'Text without leading and trailing white space'],
    ['Substring(start, length)', 'Part of the text'],
    ['Replace(old, new)', 'Text with every occurrence of old replaced'],
    ['Contains(text)', 'true when the text contains the argument'],
    ['StartsWith(text)', 'true when the text starts with the argument'],
    ['EndsWith(text)', 'true when the text ends with the argument'],
    ['ToString(format)', 'Formats a DateTime (.NET custom or standard format) or a Guid'],
    ['AddDays(n)', 'DateTime n days later (n may be negative)'],
    ['AddHours(n)', 'DateTime n hours later'],
    ['AddMinutes(n)', 'DateTime n minutes later'],
  ].map(([label, detail]) => item(`.${label as string}`, 'method', detail as string)),
  item('.Length', 'property', 'Number of characters of the text'),
  ...['true', 'false', 'null'].map((keyword) => item(keyword, 'keyword', 'literal')),
];

/** The references and functions the editor can offer; with a context, the actual env and path names. */
export function listSupported(context?: TemplateCompileContext): CompletionItem[] {
  const items: CompletionItem[] = [];
  if (context === undefined) {
    items.push(
      item('#env.<variable>', 'reference', 'A plain environment variable of the agent group', '#env.'),
      item('#env.<variable>.<member>', 'reference', 'A member of an environment variable group', '#env.'),
      item(
        '#api.OperationPath.<pathParameter>',
        'reference',
        'A path parameter of the selected operation',
        '#api.OperationPath.',
      ),
    );
  } else {
    for (const [name, variable] of Object.entries(context.env.variables)) {
      if (variable.kind === 'value') {
        items.push(item(formatReference('env', [name]), 'reference', 'Environment variable'));
      } else {
        for (const member of variable.members) {
          items.push(
            item(
              formatReference('env', [name, member]),
              'reference',
              `Member of environment variable ${name}`,
            ),
          );
        }
      }
    }
    if (context.scope === 'operation') {
      for (const parameter of context.pathParameters) {
        items.push(
          item(
            formatReference('api', ['OperationPath', parameter]),
            'reference',
            'Path parameter of the operation',
          ),
        );
      }
    }
  }
  return [...items, ...STATIC_COMPLETIONS];
}

function item(
  label: string,
  kind: CompletionKind,
  detail: string,
  insertText: string = label,
): CompletionItem {
  return { label, kind, detail, insertText: insertText.startsWith('.') ? insertText.slice(1) : insertText };
}
