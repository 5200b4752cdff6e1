/** A byte count as people read it: `812 bytes`, `8.8 KB`, `17.8 MB` (decimal units, like file managers). */
export function formatSize(bytes: number): string {
  if (bytes < 1000) return `${bytes.toLocaleString('en')} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toLocaleString('en', { maximumFractionDigits: value < 10 ? 1 : 0 })} ${units[unit]}`;
}

/** `1 operation`, `7 operations`. */
export function countOf(count: number, one: string, many: string): string {
  return `${count.toLocaleString('en')} ${count === 1 ? one : many}`;
}
