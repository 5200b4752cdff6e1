/** Above this, an entry's parameters are cut down (a full passthrough of a 5,000-operation API runs to megabytes). */
export const MAX_PARAMETERS_BYTES = 64 * 1024;
const MAX_VALUE_BYTES = 4 * 1024;

/** JSON.stringify gives undefined for an undefined value or a function, whatever the lib's return type says. */
const jsonOf = (value: unknown): string | undefined => JSON.stringify(value);

/**
 * Keeps audit entries readable in a page of 200: parameters over the limit keep every top-level key, with large
 * values replaced by a note of their size. Small parameters pass through unchanged.
 */
export function boundParameters(parameters: Record<string, unknown>): Record<string, unknown> {
  const total = Buffer.byteLength(JSON.stringify(parameters));
  if (total <= MAX_PARAMETERS_BYTES) return parameters;
  const bounded: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parameters)) {
    const size = Buffer.byteLength(jsonOf(value) ?? '');
    bounded[key] = size <= MAX_VALUE_BYTES ? value : `[${size} bytes omitted]`;
  }
  bounded.parametersTruncated = { originalBytes: total };
  return bounded;
}
