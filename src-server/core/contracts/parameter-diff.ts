import type { ParameterChange } from './audit-changes-schemas.js';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** RFC 6901: `~` and `/` escaped in a member name. */
function pointer(path: string, key: string): string {
  return `${path}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

/**
 * What changed from `before` to `after`, as JSON pointers in key order: objects are compared member by member at
 * any depth; any other value (arrays included: a reordered list is a changed list) is compared whole.
 */
export function diffParameters(before: unknown, after: unknown, path = ''): ParameterChange[] {
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((key) => {
      const at = pointer(path, key);
      if (!(key in after)) return [{ path: at, kind: 'removed' as const, before: before[key] }];
      if (!(key in before)) return [{ path: at, kind: 'added' as const, after: after[key] }];
      return diffParameters(before[key], after[key], at);
    });
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  return [{ path: path === '' ? '/' : path, kind: 'changed', before, after }];
}
