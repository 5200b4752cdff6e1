import { existsSync } from 'node:fs';

/** Debian's and Ubuntu's Chromium, used by the browser tests wherever one is installed (CI, this workplace). */
const SYSTEM_CHROMIUM_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** The system Chromium the browser tests launch, or undefined to use Playwright's own browser. */
export function systemChromium(exists: (path: string) => boolean = existsSync): string | undefined {
  return SYSTEM_CHROMIUM_PATHS.find((path) => exists(path));
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];
