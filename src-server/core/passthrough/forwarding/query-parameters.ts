import { decodeQueryComponent } from '../../paths/request-match.js';

/**
 * Raw query-string helpers that keep every other parameter exactly as received (no re-serialization), used to
 * read an API key from the query and to take it out before the request is forwarded.
 */

function nameOf(pair: string): string {
  const equals = pair.indexOf('=');
  const raw = equals === -1 ? pair : pair.slice(0, equals);
  return decodeQueryComponent(raw);
}

function valueOf(pair: string): string {
  const equals = pair.indexOf('=');
  return equals === -1 ? '' : decodeQueryComponent(pair.slice(equals + 1));
}

/** The first value of a parameter, matching the name exactly first and then ignoring case (as ASP.NET does). */
export function queryParameter(query: string, name: string): string | undefined {
  if (query === '') return undefined;
  const pairs = query.split('&');
  let caseless: string | undefined;
  const lower = name.toLowerCase();
  for (const pair of pairs) {
    if (pair === '') continue;
    const pairName = nameOf(pair);
    if (pairName === name) return valueOf(pair);
    if (caseless === undefined && pairName.toLowerCase() === lower) caseless = valueOf(pair);
  }
  return caseless;
}

/** The query without any parameter of that name (ignoring case); the rest stays byte for byte. */
export function withoutQueryParameter(query: string, name: string): string {
  if (query === '') return query;
  const lower = name.toLowerCase();
  return query
    .split('&')
    .filter((pair) => pair !== '' && nameOf(pair).toLowerCase() !== lower)
    .join('&');
}
