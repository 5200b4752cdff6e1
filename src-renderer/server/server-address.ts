/**
 * The console always runs on the Control Panel it talks to (served by it, same origin): in a browser that is the
 * address in the address bar; in the desktop app, this computer's server or a team server it connected to.
 */
export function serverAddress(): string {
  return window.location.host;
}

/** In the desktop app, on this computer's own server (the one it starts). */
export function onThisComputer(): boolean {
  // `window.gatehouse` is the desktop app's preload bridge (see session/desktop-bridge.ts).
  const bridge = window.gatehouse;
  return bridge !== undefined && bridge.localOrigin === window.location.origin;
}

/** How the window title and the app bar name the server. */
export function serverLabel(): string {
  return onThisComputer() ? 'this computer' : serverAddress();
}

/** A Control Panel address typed by someone: http or https, no user name; its origin is what counts. */
export function parseServerAddress(
  text: string,
): { ok: true; origin: string } | { ok: false; message: string } {
  const trimmed = text.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  if (trimmed === '' || !URL.canParse(withScheme))
    return {
      ok: false,
      message: 'Enter the Control Panel address, e.g. https://gatehouse.example.com:4700.',
    };
  const url = new URL(withScheme);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, message: 'The address must start with http:// or https://.' };
  if (url.username || url.password) return { ok: false, message: 'The address must not hold a user name.' };
  return { ok: true, origin: url.origin };
}

/**
 * Opens the console of another Control Panel (`null`: this computer's, in the desktop app, which keeps the
 * choice for its next start). A sign-in link (with its `#signin=` fragment) is opened as it is.
 */
export async function connectTo(url: string | null): Promise<void> {
  const bridge = window.gatehouse;
  if (bridge) {
    await bridge.connect(url);
    return;
  }
  window.location.assign(url ?? '/');
}
