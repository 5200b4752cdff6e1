import { MASK, isCredentialHeader, maskCredentialQuery } from '../../../core/audit/mask-secrets.js';
import type { ConfigData } from '../../../core/model/config-model.js';
import type { SecretBox } from '../../../core/config-store/secret-box.js';
import { buildEnvironmentScope } from '../../../core/passthrough/environment-scope.js';
import { entriesOf } from '../../../core/passthrough/passthrough-references.js';
import {
  literalParts,
  revealsLiteralSecret,
  unsealHeader,
} from '../../../core/passthrough/sealed-headers.js';

/** The header and query names policies read API keys from (besides the credential-like ones). */
export interface CredentialNames {
  headers: ReadonlySet<string>;
  query: ReadonlySet<string>;
}

export function credentialNamesOf(data: Readonly<ConfigData>): CredentialNames {
  const headers = new Set<string>();
  const query = new Set<string>();
  for (const policy of data.policies) {
    for (const grant of policy.grants) {
      if (grant.type !== 'apiKey') continue;
      if (grant.headerName) headers.add(grant.headerName.toLowerCase());
      if (grant.queryName) query.add(grant.queryName.toLowerCase());
    }
  }
  return { headers, query };
}

export function maskHeaders(
  headers: readonly { name: string; value: string }[],
  names: CredentialNames,
): { name: string; value: string }[] {
  return headers.map(({ name, value }) => ({
    name,
    value: isCredentialHeader(name) || names.headers.has(name.toLowerCase()) ? MASK : value,
  }));
}

/** `?api_key=abc&x=1` → `?api_key=********&x=1`: values of credential-like or API-key query parameters. */
export function maskQuery(target: string, names: CredentialNames): string {
  return maskCredentialQuery(target, names.query);
}

/** Shorter secrets are left alone: masking them would garble unrelated text. */
const MIN_REDACTED_LENGTH = 4;

/** `Bearer abc123` → `abc123`: the scheme word alone is no secret. */
const LEADING_SCHEME = /^[A-Za-z-]+\s+(?=\S)/;

/**
 * The literal text of the API's credential header values (`Bearer abc123` → `Bearer abc123`, `abc123`), sealed
 * or not yet: what an echoing target may send back besides the environment's secrets.
 */
function literalHeaderSecrets(data: Readonly<ConfigData>, apiId: string, box: SecretBox): string[] {
  const passthrough = data.passthroughs.find((candidate) => candidate.apiId === apiId);
  if (!passthrough) return [];
  return entriesOf(passthrough).flatMap(([, entry]) =>
    entry.headers.flatMap((header) => {
      const value = unsealHeader(header, box)?.value;
      if (value === undefined || !revealsLiteralSecret(header.name, value)) return [];
      const literals = literalParts(value);
      const candidates = [value, ...literals, ...literals.map((part) => part.replace(LEADING_SCHEME, ''))];
      // A scheme word alone (`Bearer` before a reference) is no secret, and masking it would garble the answer.
      return candidates.filter((part) => revealsLiteralSecret(header.name, part));
    }),
  );
}

/**
 * Replaces the secret environment values of the group's environment, and the API's literal credential header
 * values, wherever a target echoes them back (an echo service reflecting a header the gateway added): raw,
 * URL-encoded and JSON-escaped.
 */
export function secretRedactor(
  data: Readonly<ConfigData>,
  environmentId: string,
  apiId: string,
  box: SecretBox,
): (text: string) => string {
  const scope = buildEnvironmentScope(data, environmentId, box);
  const secrets: string[] = literalHeaderSecrets(data, apiId, box);
  for (const variable of data.environmentVariables) {
    const members = variable.kind === 'group' ? (variable.members ?? []).map((member) => member.name) : [''];
    for (const member of members) {
      const found = scope.lookup(variable.name, member === '' ? undefined : member);
      if (found?.secret) secrets.push(found.value);
    }
  }
  const needles = new Set<string>();
  for (const secret of secrets) {
    if (secret.length < MIN_REDACTED_LENGTH) continue;
    needles.add(secret);
    needles.add(encodeURIComponent(secret));
    needles.add(JSON.stringify(secret).slice(1, -1));
  }
  // Longest first, so a secret containing another is replaced whole.
  const ordered = [...needles].sort((a, b) => b.length - a.length);
  if (ordered.length === 0) return (text) => text;
  return (text) => ordered.reduce((current, needle) => current.split(needle).join(MASK), text);
}
