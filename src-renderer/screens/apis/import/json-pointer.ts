/** `/paths/~1orders~1{id}/get` → `paths › /orders/{id} › get` (RFC 6901 unescaped: `~1` is `/`, `~0` is `~`). */
export function readablePointer(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .join(' › ');
}
