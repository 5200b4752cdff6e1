/**
 * A small router over the History API. The Control Panel answers index.html for every non-API path, so any
 * console URL can be reloaded or shared.
 */
export interface RouterLocation {
  pathname: string;
  search: string;
  hash: string;
}

export interface NavigateOptions {
  replace?: boolean;
}

const NAVIGATED = 'gatehouse:navigated';
let cached: RouterLocation | undefined;
let focusHeadingOnNextScreen = false;

export function currentLocation(): RouterLocation {
  const { pathname, search, hash } = window.location;
  if (!cached || cached.pathname !== pathname || cached.search !== search || cached.hash !== hash) {
    cached = { pathname, search, hash };
  }
  return cached;
}

export function subscribeToLocation(listener: () => void): () => void {
  window.addEventListener('popstate', listener);
  window.addEventListener(NAVIGATED, listener);
  return () => {
    window.removeEventListener('popstate', listener);
    window.removeEventListener(NAVIGATED, listener);
  };
}

/**
 * Asked before an in-app navigation (and after a Back/Forward, which it can undo): returns true to let it go ahead,
 * or false to hold it and call `proceed` later, e.g. once the user has confirmed leaving unsaved changes.
 */
export type NavigationBlocker = (to: URL, proceed: () => void) => boolean;
let blocker: NavigationBlocker | undefined;
let shownUrl = window.location.href;

/** Installs the one blocker (the screen with unsaved changes); the returned function removes it. */
export function setNavigationBlocker(next: NavigationBlocker): () => void {
  blocker = next;
  return () => {
    if (blocker === next) blocker = undefined;
  };
}

// Registered before any screen subscribes, so a held Back/Forward is undone before the screens read the location.
window.addEventListener('popstate', () => {
  const popped = window.location.href;
  if (blocker && !blocker(new URL(popped), () => go(new URL(popped), {}))) {
    window.history.pushState(null, '', shownUrl);
    return;
  }
  shownUrl = popped;
});

export function navigate(to: string, options: NavigateOptions = {}): void {
  const target = new URL(to, window.location.href);
  if (blocker && !blocker(target, () => go(target, options))) return;
  go(target, options);
}

function go(target: URL, options: NavigateOptions): void {
  const next = `${target.pathname}${target.search}${target.hash}`;
  const current = `${window.location.pathname}${window.location.search}${window.location.hash}`;
  if (next === current) return;
  // Only a move to another screen the user asked for; a redirect (replace) keeps the focus where it is.
  if (!options.replace && target.pathname !== window.location.pathname) focusHeadingOnNextScreen = true;
  if (options.replace) window.history.replaceState(null, '', next);
  else window.history.pushState(null, '', next);
  shownUrl = window.location.href;
  window.dispatchEvent(new Event(NAVIGATED));
}

/** A screen's heading takes the focus after an in-app navigation (not on first load), like a page load would. */
export function takeHeadingFocusRequest(): boolean {
  const requested = focusHeadingOnNextScreen;
  focusHeadingOnNextScreen = false;
  return requested;
}

/** Same-origin link clicks without modifier keys are handled in-app; the rest keep the browser's behaviour. */
export function isPlainLeftClick(event: {
  button: number;
  metaKey: boolean;
  altKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  defaultPrevented: boolean;
}): boolean {
  return (
    !event.defaultPrevented &&
    event.button === 0 &&
    !event.metaKey &&
    !event.altKey &&
    !event.ctrlKey &&
    !event.shiftKey
  );
}
