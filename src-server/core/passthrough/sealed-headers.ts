import { isCredentialHeader } from '../audit/mask-secrets.js';
import type {
  HeaderEntry,
  PassthroughEntry,
  SealedHeaderEntry,
  StoredHeaderEntry,
  StoredPassthroughEntry,
} from '../model/config-model.js';
import type { SecretBox } from '../config-store/secret-box.js';
import type { TemplateError } from '../template/index.js';

/**
 * A header value that holds a literal secret in a credential header (`Authorization: Bearer abc123`,
 * `X-API-Key: k-123`) is kept sealed in the configuration store, like secret variables. Values made only of
 * references (`Bearer {{#env.backend.token}}`) reveal nothing and stay readable. Whatever needs the value (the
 * gateway, the preview, the checks of a save) opens the entry first.
 */

export type HeaderSealer = Pick<SecretBox, 'seal'>;
export type HeaderUnsealer = Pick<SecretBox, 'unseal'>;

const SPAN = /\{\{[\s\S]*?\}\}/g;
/** What may stay around the references of a credential value without being a secret: nothing, or a scheme. */
const AUTH_SCHEME = /^(?:bearer|basic|digest|token|apikey|api-key|negotiate|ntlm|hawk|sharedkey)?$/i;

export const UNREADABLE_SEALED_VALUE =
  "the stored value can't be decrypted with this data directory's key (keys/secrets.key was replaced): type the value again";

/** The literal text around a value's references (`Bearer {{#env.a}} x` → `Bearer`, `x`), trimmed. */
export function literalParts(value: string): string[] {
  return value.split(SPAN).map((part) => part.trim());
}

export function revealsLiteralSecret(name: string, value: string | undefined): boolean {
  if (value === undefined || !isCredentialHeader(name)) return false;
  return !AUTH_SCHEME.test(value.replace(SPAN, '').trim());
}

export function isSealed(header: StoredHeaderEntry): header is SealedHeaderEntry {
  return header.sealedValue !== undefined;
}

/** An entry without sealed values, as stored: usable as it is. */
function isOpen(entry: StoredPassthroughEntry): entry is PassthroughEntry {
  return !entry.headers.some(isSealed);
}

/** The header entry with its value sealed when it reveals a literal secret. */
export function sealHeader(header: HeaderEntry, box: HeaderSealer): StoredHeaderEntry {
  if (header.action === 'Remove' || header.value === undefined) return header;
  if (!revealsLiteralSecret(header.name, header.value)) return header;
  return { action: header.action, name: header.name, sealedValue: box.seal(header.value) };
}

/** The entry as it is stored: literal credential values sealed. */
export function sealEntry(entry: PassthroughEntry, box: HeaderSealer): StoredPassthroughEntry {
  if (!entry.headers.some((header) => revealsLiteralSecret(header.name, header.value))) return entry;
  return { ...entry, headers: entry.headers.map((header) => sealHeader(header, box)) };
}

/** The header entry in clear; undefined when its sealed value can't be decrypted (the key file was replaced). */
export function unsealHeader(header: StoredHeaderEntry, box: HeaderUnsealer): HeaderEntry | undefined {
  if (!isSealed(header)) return header;
  let value: string;
  try {
    value = box.unseal(header.sealedValue);
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    return undefined;
  }
  return { action: header.action, name: header.name, value };
}

export type OpenedEntry =
  | { ok: true; entry: PassthroughEntry }
  /** `entry` has the headers that can't be decrypted as `Remove` entries (indexes hold); `errors` name them. */
  | { ok: false; entry: PassthroughEntry; errors: TemplateError[] };

/** The stored entry with its header values in clear, as the gateway and the preview compile it. */
export function openEntry(entry: StoredPassthroughEntry, box: HeaderUnsealer): OpenedEntry {
  if (isOpen(entry)) return { ok: true, entry };
  const errors: TemplateError[] = [];
  const headers = entry.headers.map((header, index): HeaderEntry => {
    const opened = unsealHeader(header, box);
    if (opened) return opened;
    errors.push({ place: `header:${index}`, position: 0, message: UNREADABLE_SEALED_VALUE });
    return { action: 'Remove', name: header.name };
  });
  const opened = { ...entry, headers };
  return errors.length === 0 ? { ok: true, entry: opened } : { ok: false, entry: opened, errors };
}
