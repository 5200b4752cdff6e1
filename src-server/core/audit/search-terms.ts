/** At most this many words in one search. */
export const MAX_SEARCH_WORDS = 16;
const MAX_WORD_LENGTH = 100;

/**
 * The words of a search, as both engines index the parameters' values: runs of letters and digits, lower-cased
 * (`orders-api` is `orders` and `api`). Empty when the text holds no letter or digit.
 */
export function searchWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0)
    .map((word) => word.slice(0, MAX_WORD_LENGTH));
}

/** SQLite FTS5: every word, each as the start of a word of the parameters. Words hold no quote to escape. */
export function fts5Query(words: readonly string[]): string {
  return words.map((word) => `"${word}"*`).join(' AND ');
}

/** PostgreSQL `to_tsquery('simple', …)`: the same. */
export function tsQuery(words: readonly string[]): string {
  return words.map((word) => `${word}:*`).join(' & ');
}
