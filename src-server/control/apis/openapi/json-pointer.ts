/** RFC 6901 JSON pointers and the `#/...` fragments of internal `$ref`s. */

export function escapePointerSegment(segment: string): string {
  if (!segment.includes('~') && !segment.includes('/')) return segment;
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

export function appendPointer(pointer: string, segment: string | number): string {
  return `${pointer}/${escapePointerSegment(String(segment))}`;
}

export function pointerFromSegments(segments: ReadonlyArray<string | number>): string {
  return segments.reduce<string>((pointer, segment) => appendPointer(pointer, segment), '');
}

/** Splits a JSON pointer into unescaped segments; `undefined` when it is not a valid pointer. */
export function parsePointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  const segments: string[] = [];
  for (const raw of pointer.slice(1).split('/')) {
    if (/~(?![01])/.test(raw)) return undefined;
    segments.push(raw.replaceAll('~1', '/').replaceAll('~0', '~'));
  }
  return segments;
}

/**
 * The JSON pointer of an internal reference such as `#/components/schemas/Order`, or `undefined`
 * when the reference is not a `#` fragment pointer. The fragment is a URI fragment, so it is
 * percent-decoded first (`#/paths/~1orders~1%7Bid%7D` names `/paths/~1orders~1{id}`).
 */
export function internalRefToPointer(ref: string): string | undefined {
  if (!ref.startsWith('#')) return undefined;
  const fragment = ref.slice(1);
  let decoded: string;
  try {
    decoded = decodeURIComponent(fragment);
  } catch {
    // A `%` that is not an escape: RFC 6901 parsers in the wild read such fragments literally.
    decoded = fragment;
  }
  return parsePointer(decoded) === undefined ? undefined : decoded;
}
