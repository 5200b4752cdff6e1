import type { ReferenceItem } from './reference-catalog.js';

/** Where a reference is being typed: the text from `start` to `end` is replaced by the chosen reference. */
export interface CompletionContext {
  start: number;
  end: number;
  /** What is typed so far (`#env.ba`), or `''` right after `{{`. */
  query: string;
  /** Inside an open `{{ … }}` span; outside one, the reference is inserted with its braces. */
  insideSpan: boolean;
}

const REFERENCE_CHARS = /[A-Za-z0-9_.[\]"-]*/y;
const TOKEN_BEFORE = /#[A-Za-z0-9_.[\]"-]*$/;

function insideSpanAt(text: string, caret: number): boolean {
  const before = text.slice(0, caret);
  return before.lastIndexOf('{{') > before.lastIndexOf('}}');
}

/**
 * The reference being typed at the caret: `{{#…` or `{{ ` inside a span, or `#env.` / `#api.` anywhere (typed
 * outside a span, the choice is wrapped in `{{ }}`). `null` when there is nothing to offer, unless `forced`
 * (Ctrl+Space): then every reference is offered at the caret.
 */
export function completionContextAt(text: string, caret: number, forced = false): CompletionContext | null {
  const before = text.slice(0, caret);
  const insideSpan = insideSpanAt(text, caret);
  const token = TOKEN_BEFORE.exec(before)?.[0];
  REFERENCE_CHARS.lastIndex = caret;
  const tail = REFERENCE_CHARS.exec(text)?.[0] ?? '';
  if (token !== undefined) {
    if (!insideSpan && !forced && !/^#(env|api)\./.test(token)) return null;
    return { start: caret - token.length, end: caret + tail.length, query: token, insideSpan };
  }
  if (forced || (insideSpan && /\{\{\s*$/.test(before)))
    return { start: caret, end: caret, query: '', insideSpan };
  return null;
}

/** `#env["my-host"].url` → `#env.my-host.url`, lower-cased: typing `#env.my` finds names in brackets too. */
function dotted(text: string): string {
  return text.replace(/\["((?:[^"\\]|\\.)*)"\]/g, '.$1').toLowerCase();
}

/** The items for what is typed: names starting with it first, then names containing it. */
export function matchingReferences(items: readonly ReferenceItem[], query: string): ReferenceItem[] {
  const wanted = dotted(query);
  if (wanted === '' || wanted === '#') return [...items];
  const starting: ReferenceItem[] = [];
  const containing: ReferenceItem[] = [];
  for (const item of items) {
    const label = dotted(item.label);
    // A partial item that is exactly what is typed has nothing left to add.
    if (item.partial && item.insertText.toLowerCase() === wanted) continue;
    if (label.startsWith(wanted) || item.insertText.toLowerCase().startsWith(wanted)) starting.push(item);
    else if (label.includes(wanted.slice(1))) containing.push(item);
  }
  return [...starting, ...containing];
}

/** The text with the reference in place, and where the caret goes. */
export function applyReference(
  text: string,
  context: CompletionContext,
  item: ReferenceItem,
): { text: string; caret: number } {
  const head = text.slice(0, context.start);
  const tail = text.slice(context.end);
  if (!context.insideSpan) {
    const inserted = `{{${item.insertText}}}`;
    const caret = head.length + inserted.length - (item.partial ? 2 : 0);
    return { text: head + inserted + tail, caret };
  }
  const close = tail.indexOf('}}');
  const nextOpen = tail.indexOf('{{');
  const needsClose = close === -1 || (nextOpen !== -1 && nextOpen < close);
  const inserted = item.insertText + (needsClose ? '}}' : '');
  const caret = head.length + item.insertText.length + (needsClose && !item.partial ? 2 : 0);
  return { text: head + inserted + tail, caret };
}

/**
 * Where a reference opened before the caret is still being typed (`…{{#env.` with no `}}` after it), or
 * undefined. Problems from there on are about an unfinished reference, not yet about a mistake.
 */
export function openReferenceAt(text: string, caret: number | null): number | undefined {
  if (caret === null || caret < 2) return undefined;
  const start = text.lastIndexOf('{{', caret - 2);
  if (start === -1 || text.includes('}}', start)) return undefined;
  return start;
}
