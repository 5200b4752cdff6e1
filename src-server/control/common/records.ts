import { HttpProblem, notFound } from '../../core/http/problem.js';
import { ErrorCode } from '../../core/contracts/error-codes.js';

/** Record lookups and name rules shared by the management services. */

export function findRecord<T extends { id: string }>(records: readonly T[], id: string): T | undefined {
  return records.find((record) => record.id === id);
}

/** The record with this id, or a 404 naming what was looked for (`environment`, `agent group`, …). */
export function requireRecord<T extends { id: string }>(records: readonly T[], id: string, label: string): T {
  const record = findRecord(records, id);
  if (!record) throw notFound(`No ${label} has id ${id}.`);
  return record;
}

export { sameName } from '../../core/contracts/common-schemas.js';

/** List order of every management collection: by name (ignoring case), then id for a stable order. */
export function byName<T extends { name: string; id: string }>(a: T, b: T): number {
  return a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || a.id.localeCompare(b.id);
}

/** Case-insensitive substring match of `search` against any of the texts. */
export function matchesSearch(search: string | undefined, ...texts: (string | undefined)[]): boolean {
  if (!search) return true;
  const needle = search.toLowerCase();
  return texts.some((text) => text?.toLowerCase().includes(needle));
}

/** `a`, `a and b`, `a, b and c`, with at most `max` listed. */
export function listNames(names: readonly string[], max = 5): string {
  const shown = names.slice(0, max);
  const more = names.length - shown.length;
  const items = more > 0 ? [...shown, `${more} more`] : shown;
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

export function quoted(name: string): string {
  return `'${name}'`;
}

/**
 * 409 for a name another record already has, said in plain words at the field that holds it (`errors`), so a
 * form can show it there; `conflictingId` names the other record.
 */
export function nameTaken(message: string, conflictingId: string, field = 'name'): HttpProblem {
  return new HttpProblem(ErrorCode.GH_ERR_ALREADY_EXISTS, message, {
    title: 'That name is already taken',
    errors: { [field]: [message] },
    extensions: { conflictingId },
  });
}
