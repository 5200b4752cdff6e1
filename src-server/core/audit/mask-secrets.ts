import { SECRET_MASK as MASK } from '../contracts/constants.js';

export { MASK };

/** Property names whose values are secrets wherever they appear. */
const SECRET_KEY =
  /(secret|ticket|password|passwd|pwd|token|apikey|api_key|api-key|privatekey|private_key|credential|signature)/i;

/** Header names whose values carry credentials. */
const CREDENTIAL_HEADER =
  /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api-key|apikey|ocp-apim-subscription-key|x-functions-key|x-auth-token)$|(token|secret|key|password|signature)/i;

export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_HEADER.test(name.trim());
}

/**
 * Returns a copy with secrets replaced by `********`: values under secret-looking keys, `value` of objects that
 * declare themselves secret (`type: "secret"` or `secret: true`), and `value` of header entries whose `name` is a
 * credential header. Depth- and size-bounded so a hostile body can't make it expensive.
 */
export function maskSecrets(value: unknown, depth = 0): unknown {
  if (depth > 32) return '[truncated]';
  if (Array.isArray(value)) return value.slice(0, 1000).map((item) => maskSecrets(item, depth + 1));
  if (!value || typeof value !== 'object') return value;
  const source = value as Record<string, unknown>;
  const declaresSecret =
    source.type === 'secret' ||
    source.secret === true ||
    (typeof source.name === 'string' && 'value' in source && isCredentialHeader(source.name));
  const masked: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(source)) {
    if (key === 'value' && declaresSecret && child !== undefined && child !== null) masked[key] = MASK;
    else if (
      SECRET_KEY.test(key) &&
      child !== null &&
      child !== undefined &&
      typeof child !== 'boolean' &&
      typeof child !== 'object'
    ) {
      masked[key] = MASK;
    } else masked[key] = maskSecrets(child, depth + 1);
  }
  return masked;
}

export function maskParameters(parameters: Record<string, unknown>): Record<string, unknown> {
  return maskSecrets(parameters) as Record<string, unknown>;
}
