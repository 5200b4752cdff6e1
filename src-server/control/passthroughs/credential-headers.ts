import { withEntryDefaults } from '../../core/passthrough/forwarding/index.js';
import { isCredentialHeader, MASK } from '../../core/audit/mask-secrets.js';
import {
  isSealed,
  revealsLiteralSecret,
  unsealHeader,
  UNREADABLE_SEALED_VALUE,
  type HeaderUnsealer,
} from '../../core/passthrough/sealed-headers.js';
import type {
  PassthroughRecord,
  StoredHeaderEntry,
  StoredPassthroughEntry,
} from '../../core/model/config-model.js';
import type { FieldErrors } from '../common/editor-paths.js';
import type { PassthroughEntry } from '../../core/contracts/passthrough-schemas.js';

/**
 * Values of credential headers (Authorization, API-key headers, …) are shown as `********` when they hold
 * literal text, which may be a secret typed in place of a secret variable (and is stored sealed). Values made
 * only of references (`Bearer {{#env.backend.token}}`) are shown, since they reveal nothing. Sending `********`
 * back keeps the stored value, so an editor can save what it loaded.
 */

export function maskEntry(stored: StoredPassthroughEntry): PassthroughEntry {
  // Every setting, those of older records included (they take their defaults).
  const entry = withEntryDefaults<StoredHeaderEntry>(stored);
  return {
    ...entry,
    headers: entry.headers.map((header) =>
      isSealed(header) || revealsLiteralSecret(header.name, header.value)
        ? { action: header.action, name: header.name, value: MASK }
        : header,
    ),
  };
}

/**
 * Puts stored values back, in clear, where a PUT sent `********` for a credential header of the same entry (the
 * entry is sealed again when it is stored).
 */
export function restoreMaskedValues(
  entry: PassthroughEntry,
  stored: StoredPassthroughEntry | undefined,
  at: (string | number)[],
  errors: FieldErrors,
  box: HeaderUnsealer,
): PassthroughEntry {
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
    const value = unsealHeader(stored!.headers[source]!, box)?.value;
    if (value === undefined) {
      errors.add([...at, 'headers', index, 'value'], `The header can't be kept: ${UNREADABLE_SEALED_VALUE}.`);
      return header;
    }
    return { ...header, value };
  });
  return { ...entry, headers };
}

/** The stored header at the same position, else the first unused one of the same name that had a value. */
function findStoredHeader(
  stored: StoredPassthroughEntry | undefined,
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
      hasValue(previous) &&
      previous.name.toLowerCase() === header.name.toLowerCase()
    );
  };
  if (sameName(index)) return index;
  const found = stored.headers.findIndex((_, candidate) => sameName(candidate));
  return found === -1 ? undefined : found;
}

function hasValue(header: StoredHeaderEntry): boolean {
  return isSealed(header) || header.value !== undefined;
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
