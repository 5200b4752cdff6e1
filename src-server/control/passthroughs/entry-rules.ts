import { X509Certificate } from 'node:crypto';
import type { FieldErrors } from '../common/editor-paths.js';
import type { PassthroughEntry } from '../../core/contracts/passthrough-schemas.js';
import { checkAllowedOrigin } from './allowed-origins.js';

/**
 * Rules of one editor entry beyond its shape: header entries, CORS origins and exposed headers, and the CA
 * certificate.
 */

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Headers the gateway owns: hop-by-hop headers and the framing of the forwarded request. */
const MANAGED_HEADERS = new Set([
  'connection',
  'transfer-encoding',
  'upgrade',
  'keep-alive',
  'te',
  'trailer',
  'proxy-connection',
  'host',
  'content-length',
]);

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

type Path = (string | number)[];

/**
 * Checks an entry and returns it normalised (origins lower-cased and de-duplicated, exposed header names trimmed
 * and de-duplicated, `Remove` entries without a value). Header entries that break a rule are reported here, and their values are not compiled.
 */
export function checkEntryRules(
  entry: PassthroughEntry,
  at: Path,
  errors: FieldErrors,
): { entry: PassthroughEntry; badHeaders: Set<number> } {
  const badHeaders = new Set<number>();
  const headers = entry.headers.map((header, index) => {
    const problems = headerProblems(header);
    for (const [field, message] of problems) errors.add([...at, 'headers', index, field], message);
    if (problems.length > 0) badHeaders.add(index);
    return header.action === 'Remove' ? { action: header.action, name: header.name } : header;
  });
  const allowedOrigins: string[] = [];
  entry.cors.allowedOrigins.forEach((raw, index) => {
    const checked = checkAllowedOrigin(raw);
    if (!checked.ok) errors.add([...at, 'cors', 'allowedOrigins', index], checked.message);
    else if (!allowedOrigins.includes(checked.origin)) allowedOrigins.push(checked.origin);
  });
  if (allowedOrigins.includes('*') && entry.cors.allowCredentials) {
    errors.add(
      [...at, 'cors', 'allowCredentials'],
      "Browsers refuse credentials for the wildcard origin '*': list the allowed origins instead.",
    );
  }
  const exposeHeaders: string[] = [];
  entry.cors.exposeHeaders.forEach((raw, index) => {
    const name = raw.trim();
    if (!TOKEN.test(name)) {
      errors.add([...at, 'cors', 'exposeHeaders', index], `'${raw}' is not a valid HTTP header name.`);
    } else if (!exposeHeaders.some((known) => known.toLowerCase() === name.toLowerCase())) {
      exposeHeaders.push(name);
    }
  });
  if (entry.cors.enabled && entry.cors.allowedOrigins.length === 0) {
    errors.add([...at, 'cors', 'allowedOrigins'], 'CORS is on: list the allowed origins (or * for any).');
  }
  if (entry.tls.caCertificate !== undefined) {
    const problem = certificateProblem(entry.tls.caCertificate);
    if (problem) errors.add([...at, 'tls', 'caCertificate'], problem);
  }
  return { entry: { ...entry, headers, cors: { ...entry.cors, allowedOrigins, exposeHeaders } }, badHeaders };
}

function headerProblems(header: PassthroughEntry['headers'][number]): [string, string][] {
  const problems: [string, string][] = [];
  if (/[\r\n\0]/.test(header.name)) problems.push(['name', 'A header name cannot contain CR, LF or NUL.']);
  else if (!TOKEN.test(header.name)) {
    problems.push([
      'name',
      "A header name uses letters, digits and !#$%&'*+-.^_`|~ only (an RFC 9110 token).",
    ]);
  } else if (MANAGED_HEADERS.has(header.name.toLowerCase())) {
    problems.push([
      'name',
      `${header.name} is managed by the gateway for each connection and cannot be changed.`,
    ]);
  }
  if (header.action === 'Remove') {
    if (header.value !== undefined && header.value !== '')
      problems.push(['value', 'A Remove entry has no value.']);
  } else if (header.value === undefined || header.value === '') {
    problems.push(['value', `${header.action} needs a value.`]);
  } else if (/[\r\n\0]/.test(header.value)) {
    problems.push(['value', 'A header value cannot contain CR, LF or NUL.']);
  }
  return problems;
}

function certificateProblem(pem: string): string | undefined {
  if (/PRIVATE KEY/.test(pem)) return 'Paste only CA certificates here, never a private key.';
  const blocks = pem.match(PEM_CERTIFICATE);
  if (!blocks)
    return 'Paste the CA certificate in PEM form: -----BEGIN CERTIFICATE----- … -----END CERTIFICATE-----.';
  for (const [index, block] of blocks.entries()) {
    try {
      new X509Certificate(block);
    } catch (error) {
      if (!(error instanceof Error)) throw error;
      return `Certificate ${index + 1} of ${blocks.length} is not a valid X.509 certificate.`;
    }
  }
  return undefined;
}
