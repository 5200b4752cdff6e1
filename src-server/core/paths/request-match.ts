import type { MatchCondition, RequestMatch } from '../model/config-model.js';

/**
 * Path keys that carry more than a path, as AWS and Azure publish them: several operations on one URL, told
 * apart by a query value or a header (`/#X-Amz-Target=SQS.AddPermission`, `/#Action=UntagQueue`,
 * `/tags/{resourceArn}#tagKeys`, `/{container}?restype=container&comp=list`). The part before `?` or `#` is
 * the path template the gateway matches; the rest names conditions on the query or the headers.
 */

export type { MatchCondition, RequestMatch };

export interface SplitPathKey {
  /** The path template: the key up to its first `?` or `#`. */
  template: string;
  /** What follows the template, without its `?` or `#`; absent when the key is a plain template. */
  suffix?: { marker: '?' | '#'; text: string };
}

export function splitPathKey(key: string): SplitPathKey {
  const end = key.search(/[?#]/);
  if (end === -1) return { template: key };
  return {
    template: key.slice(0, end),
    suffix: { marker: key.charAt(end) as '?' | '#', text: key.slice(end + 1) },
  };
}

/** The path template of a path key (`/tags/{arn}#tagKeys` → `/tags/{arn}`). */
export function templateOfPathKey(key: string): string {
  return splitPathKey(key).template;
}

/**
 * The `name=value` pairs of a key's suffix (`&`-separated, either marker, percent-decoded where valid):
 * `X-Amz-Target=SQS.AddPermission` → one pair; `tagKeys` → a name alone. Empty names are dropped.
 */
export function parseSuffixConditions(text: string): MatchCondition[] {
  const conditions: MatchCondition[] = [];
  for (const part of text.split(/[&?#]/)) {
    if (part === '') continue;
    const equals = part.indexOf('=');
    const name = decodeQueryComponent(equals === -1 ? part : part.slice(0, equals));
    if (name === '') continue;
    conditions.push(equals === -1 ? { name } : { name, value: decodeQueryComponent(part.slice(equals + 1)) });
  }
  return conditions;
}

/** Number of conditions: a request matching more of them is the more specific operation. */
export function matchWeight(match: RequestMatch | undefined): number {
  return (match?.query?.length ?? 0) + (match?.headers?.length ?? 0);
}

/** A stable text form, for telling whether two operations ask the same of a request. */
export function describeRequestMatch(match: RequestMatch | undefined): string {
  const parts: string[] = [];
  for (const condition of match?.query ?? []) parts.push(`query ${describeCondition(condition)}`);
  for (const condition of match?.headers ?? []) parts.push(`header ${describeCondition(condition)}`);
  return parts.sort().join(', ');
}

function describeCondition(condition: MatchCondition): string {
  return condition.value === undefined ? condition.name : `${condition.name}=${condition.value}`;
}

/** A query string component (`+` is a space), percent-decoded where the escapes are valid, else as written. */
export function decodeQueryComponent(text: string): string {
  const spaced = text.includes('+') ? text.replaceAll('+', ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch (error) {
    // Malformed escapes are read as written, like the path segments (path-template.ts).
    if (error instanceof URIError) return spaced;
    throw error;
  }
}
