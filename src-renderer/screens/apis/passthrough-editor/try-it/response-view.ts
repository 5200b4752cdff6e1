import type { HeaderPair, TryItResult } from '../../../../api/types.js';

export interface ShownBody {
  text: string;
  kind: 'json' | 'text' | 'base64' | 'empty';
}

export function headerValue(headers: readonly HeaderPair[], name: string): string | undefined {
  const wanted = name.toLowerCase();
  return headers.find((header) => header.name.toLowerCase() === wanted)?.value;
}

/** JSON pretty-printed when it parses (a cut body rarely does and is shown as it came), other text as is. */
export function shownBody(result: TryItResult): ShownBody {
  if (result.bodyEncoding === 'base64') return { text: result.body, kind: 'base64' };
  if (result.body === '') return { text: '', kind: 'empty' };
  const contentType = headerValue(result.headers, 'content-type')?.toLowerCase() ?? '';
  const start = result.body.trimStart()[0];
  const jsonLike = /[/+]json\b/.test(contentType) || start === '{' || start === '[';
  if (jsonLike) {
    try {
      return { text: JSON.stringify(JSON.parse(result.body), null, 2), kind: 'json' };
    } catch {
      // Not valid JSON after all (or cut short): show the text.
    }
  }
  return { text: result.body, kind: 'text' };
}

/** `(not forwarded: no API policy …)` style explanation for a request that never reached the target. */
export function notForwardedReason(result: TryItResult): string {
  if (result.outcome === null) return 'Unknown: the API Monitoring record did not arrive in time.';
  return result.reason ? `Not forwarded: ${result.reason}.` : 'Not forwarded.';
}
