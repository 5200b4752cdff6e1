/**
 * The editor's own message about a field, or the server's once a save was refused for it: both say the same
 * thing in other words, and saying it twice reads as two problems.
 */
export function oneVoice(local: string | undefined, saved: readonly string[]): string[] {
  if (saved.length > 0) return [...saved];
  return local === undefined ? [] : [local];
}
