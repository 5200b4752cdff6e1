import type { EnvVariableShape } from '../../core/template/index.js';
import type { PassthroughEntry } from '../../core/model/config-model.js';

const ENV_REFERENCE =
  /#env(?:\.([A-Za-z_][A-Za-z0-9_]*)|\["((?:[^"\\]|\\.)*)"\])(?:\.([A-Za-z_][A-Za-z0-9_]*)|\["((?:[^"\\]|\\.)*)"\])?/g;

/**
 * The `#env` references of an entry that name a variable or member the environment no longer has (deleted after
 * the passthrough was deployed), spelled as written: what a client may be told, unlike compile messages.
 */
export function missingEnvReferences(
  entry: PassthroughEntry,
  shapes: Readonly<Record<string, EnvVariableShape>>,
): string[] {
  const texts = [
    entry.target.section1,
    entry.target.section2,
    entry.target.section3,
    entry.target.section4 ?? '',
    ...entry.headers.map((rule) => rule.value ?? ''),
  ];
  const missing = new Set<string>();
  for (const text of texts) {
    for (const match of text.matchAll(ENV_REFERENCE)) {
      const variable = match[1] ?? unescape(match[2]);
      const member = match[3] ?? (match[4] === undefined ? undefined : unescape(match[4]));
      const shape = Object.hasOwn(shapes, variable) ? shapes[variable] : undefined;
      if (!shape) missing.add(`#env.${variable}`);
      else if (shape.kind === 'group' && member !== undefined && !shape.members.includes(member)) {
        missing.add(match[0]);
      }
    }
  }
  return [...missing];
}

function unescape(text: string | undefined): string {
  return (text ?? '').replace(/\\(.)/g, '$1');
}
