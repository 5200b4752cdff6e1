import { isCredentialHeader, MASK } from '../../audit/mask-secrets.js';
import type { PassthroughEntry, PassthroughRecord } from '../../store/config-model.js';
import type { FieldErrors } from '../editor-paths.js';
import type { PassthroughEntryInput } from './passthrough-schemas.js';

/**
 * Values of credential headers (Authorization, API-key headers, …) are shown as `********` when they hold
 * literal text, which may be a secret typed in place of a secret variable. Values made only of references
 * (`Bearer {{#env.backend.token}}`) are shown, since they reveal nothing. Sending `********` back keeps the
 * stored value, so an editor can save what it loaded.
 */

const SPAN = /\{\{[\s\S]*?\}\}/g;
/** What may stay around the references of a credential value without being a secret: nothing, or a scheme. */
const AUTH_SCHEME = /^(?:bearer|basic|digest|token|apikey|api-key|negotiate|ntlm|hawk|sharedkey)?$/i;

export function revealsLiteralSecret(name: string, value: string | undefined): boolean {
  if (value === undefined || !isCredentialHeader(name)) return false;
  return !AUTH_SCHEME.test(value.replace(SPAN, '').trim());
}

export function maskEntry(entry: PassthroughEntry): PassthroughEntry {
  if (!entry.headers.some((header) => revealsLiteralSecret(header.name, header.value))) return entry;
  return {
    ...entry,
    headers: entry.headers.map((header) =>
      revealsLiteralSecret(header.name, header.value) ? { ...header, value: MASK } : header,
    ),
  };
}

/** Puts stored values back where a PUT sent `********` for a credential header of the same entry. */
export function restoreMaskedValues(
  entry: PassthroughEntryInput,
  stored: PassthroughEntry | undefined,
  at: (string | number)[],
  errors: FieldErrors,
): PassthroughEntryInput {
  if (!entry.headers.some((header) => header.value === MASK)) return entry;
  const used = new Set<number>();
  const headers = entry.headers.map((header, index) => {
    if (header.value !== MASK || !isCredentialHeader(header.name)) return header;
    const source = findStoredHeader(stored, header, index, used);
    if (source === undefined) {
      errors.add(
        [...at, 'headers', index, 'value'],
        'There is no stored value to keep for this header: type the value.',
      );
      return header;
    }
    used.add(source);
    return { ...header, value: stored!.headers[source]!.value };
  });
  return { ...entry, headers };
}

/** The stored header at the same position, else the first unused one of the same name that had a value. */
function findStoredHeader(
  stored: PassthroughEntry | undefined,
  header: { name: string },
  index: number,
  used: Set<number>,
): number | undefined {
  if (!stored) return undefined;
  const sameName = (candidate: number) => {
    const previous = stored.headers[candidate];
    return (
      previous !== undefined &&
      !used.has(candidate) &&
      previous.value !== undefined &&
      previous.name.toLowerCase() === header.name.toLowerCase()
    );
  };
  if (sameName(index)) return index;
  const found = stored.headers.findIndex((_, candidate) => sameName(candidate));
  return found === -1 ? undefined : found;
}

export function toPassthroughDto(passthrough: PassthroughRecord) {
  return {
    id: passthrough.id,
    apiId: passthrough.apiId,
    ...(passthrough.allOperations ? { allOperations: maskEntry(passthrough.allOperations) } : {}),
    operations: Object.fromEntries(
      Object.entries(passthrough.operations).map(([key, entry]) => [key, maskEntry(entry)]),
    ),
    revision: passthrough.revision,
    createdAt: passthrough.createdAt,
    updatedAt: passthrough.updatedAt,
  };
}
