import type { DefinitionIssue } from '../../../api/types.js';

export interface WarningGroup {
  /** The message with its particulars (quoted values, parameter names, numbers) left out. */
  pattern: string;
  issues: DefinitionIssue[];
}

/** Warnings of the same kind together (`"/a" has no operations`, `"/b" has no operations`), biggest group first. */
export function groupWarnings(warnings: readonly DefinitionIssue[]): WarningGroup[] {
  const groups = new Map<string, DefinitionIssue[]>();
  for (const warning of warnings) {
    const pattern = patternOf(warning.message);
    const group = groups.get(pattern) ?? [];
    group.push(warning);
    groups.set(pattern, group);
  }
  return [...groups.entries()]
    .map(([pattern, issues]) => ({ pattern, issues }))
    .sort((a, b) => b.issues.length - a.issues.length);
}

function patternOf(message: string): string {
  return message
    .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
    .replace(/\{[^}\s]*\}/g, '{…}')
    .replace(/\b(GET|PUT|POST|DELETE|OPTIONS|HEAD|PATCH|TRACE|QUERY) \S+/g, '…')
    .replace(/\bname: [^,\s]+/g, 'name: …')
    .replace(/\d+/g, 'N');
}
