/** The only channels the preload bridge exposes. Both sides import this list; nothing else crosses. */
export const IPC_CHANNELS = {
  session: 'gatehouse:session',
  openFile: 'gatehouse:open-file',
  saveFile: 'gatehouse:save-file',
  revealDataFolder: 'gatehouse:reveal-data-folder',
} as const;

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
  session: () => Promise<DesktopSession>;
  openFile: (options: { title: string; extensions: string[] }) => Promise<OpenFileResult | null>;
  saveFile: (options: { title: string; defaultName: string; content: string }) => Promise<string | null>;
  revealDataFolder: () => Promise<void>;
}
