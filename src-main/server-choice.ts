import { readFile, writeFile } from 'node:fs/promises';

const SIGN_IN_WINDOW_MS = 10 * 60_000;

/**
 * Which Control Panel the window shows: this computer's (the embedded server) or a team server's, kept in a small
 * file for the next start. Also which origins the window may navigate to: those two, and for ten minutes an
 * identity provider's the console is signing in with.
 */
export class ServerChoice {
  #remote: string | undefined;
  readonly #signIn = new Map<string, number>();

  private constructor(
    private readonly file: string,
    readonly localUrl: string,
    remote: string | undefined,
  ) {
    this.#remote = remote;
  }

  static async load(file: string, localUrl: string): Promise<ServerChoice> {
    let remote: string | undefined;
    try {
      const saved = JSON.parse(await readFile(file, 'utf8')) as { remote?: unknown };
      remote = typeof saved.remote === 'string' ? teamOrigin(saved.remote) : undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') console.warn('server choice ignored:', error);
    }
    return new ServerChoice(file, localUrl, remote);
  }

  get localOrigin(): string {
    return new URL(this.localUrl).origin;
  }

  /** Where the window starts. */
  get startUrl(): string {
    return this.#remote ? `${this.#remote}/` : this.localUrl;
  }

  /** Chooses a team server (its origin is kept) or this computer (`null`); returns the URL to load. */
  async connect(url: string | null): Promise<string> {
    if (url === null) {
      this.#remote = undefined;
    } else {
      const origin = teamOrigin(url);
      if (!origin) throw new Error('A Control Panel address is an http or https URL without a user name.');
      this.#remote = origin === this.localOrigin ? undefined : origin;
    }
    await writeFile(this.file, JSON.stringify({ remote: this.#remote ?? null }));
    // A sign-in link keeps its fragment (the one-time ticket) and path; any other address opens the console.
    return url !== null && url.includes('#') ? url : this.startUrl;
  }

  allowSignIn(authorizationEndpoint: string): void {
    const origin = new URL(authorizationEndpoint).origin;
    if (origin.startsWith('https:') || origin.startsWith('http:'))
      this.#signIn.set(origin, Date.now() + SIGN_IN_WINDOW_MS);
  }

  /** Pages of these origins get the bridge's calls; the identity provider's sign-in page gets none. */
  isConsole(origin: string): boolean {
    return origin === this.localOrigin || origin === this.#remote;
  }

  mayNavigateTo(origin: string): boolean {
    if (this.isConsole(origin)) return true;
    const until = this.#signIn.get(origin);
    return until !== undefined && until > Date.now();
  }
}

function teamOrigin(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.username || parsed.password)
    return undefined;
  return parsed.origin;
}
