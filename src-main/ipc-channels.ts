/** The only channels the preload bridge exposes. Both sides import this list; nothing else crosses. */
export const IPC_CHANNELS = {
  session: 'gatehouse:session',
  openFile: 'gatehouse:open-file',
  saveFile: 'gatehouse:save-file',
  revealDataFolder: 'gatehouse:reveal-data-folder',
  /** Which Control Panel the window shows: this computer's, or a team server's (persisted). */
  connect: 'gatehouse:connect',
  /** The console is about to send the window to its identity provider's sign-in page. */
  allowSignIn: 'gatehouse:allow-sign-in',
} as const;

/** The argument main gives the window (`--gatehouse-local-origin=…`): the preload exposes it as `localOrigin`. */
export const LOCAL_ORIGIN_ARGUMENT = '--gatehouse-local-origin=';

export interface DesktopSession {
  controlPanelUrl: string;
  accessToken: string;
  userName: string;
  roles: string[];
}

export interface OpenFileResult {
  name: string;
  /** Base64 of the file's bytes. */
  contentBase64: string;
}

export interface DesktopBridge {
  /** The origin of this computer's Control Panel: the console runs on it unless connected to a team server. */
  localOrigin: string;
  /** Only on this computer's Control Panel: a token of its built-in identity provider for the desktop user. */
  session: () => Promise<DesktopSession>;
  /**
   * Shows a team server's Control Panel (its origin is kept for the next start; a sign-in link's fragment is
   * passed on), or this computer's again (`null`).
   */
  connect: (url: string | null) => Promise<void>;
  /** Lets the window go to the identity provider's sign-in page (an authorization endpoint URL) and back. */
  allowSignIn: (authorizationEndpoint: string) => Promise<void>;
  openFile: (options: { title: string; extensions: string[] }) => Promise<OpenFileResult | null>;
  saveFile: (options: { title: string; defaultName: string; content: string }) => Promise<string | null>;
  revealDataFolder: () => Promise<void>;
}
