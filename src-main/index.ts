import { readFile, writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BrowserWindow, app, dialog, ipcMain, shell } from 'electron';
import { AddressInUseError, defaultDataDir, startGatehouse, type Gatehouse } from '../src-server/index.js';
import { IPC_CHANNELS, type DesktopSession } from './ipc-channels.js';
import { installMenu } from './menu.js';
import { loadWindowState, trackWindowState } from './window-state.js';

const here = fileURLToPath(new URL('.', import.meta.url));
let gatehouse: Gatehouse | undefined;
let mainWindow: BrowserWindow | undefined;

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (mainWindow?.isMinimized()) mainWindow.restore();
    mainWindow?.focus();
  });
  app.whenReady().then(start, (error: unknown) => fail(error));
}

async function start(): Promise<void> {
  // The CLI's data dir (GATEHOUSE_DATA_DIR, else the per-user folder named Gatehouse), so `gatehouse token`,
  // `gatehouse link` and `gatehouse serve` work on the desktop app's tenant. Electron's userData folder is named
  // after the package (`gatehouse`): on Linux, another folder.
  const dataDir = defaultDataDir();
  try {
    gatehouse = await startGatehouse({ dataDir, uiDir: join(here, '../renderer'), command: 'desktop app' });
  } catch (error) {
    // Another process may own port 4700 or 8080 (a `gatehouse serve` on another data dir): take free ports.
    if (!(error instanceof AddressInUseError)) throw error;
    gatehouse = await startGatehouse({
      dataDir,
      port: 0,
      gatewayPort: 0,
      uiDir: join(here, '../renderer'),
      command: 'desktop app',
    });
  }
  registerIpc(gatehouse, dataDir);
  installMenu(gatehouse, dataDir);
  await openWindow(gatehouse);
}

function registerIpc(server: Gatehouse, dataDir: string): void {
  const userName = userInfo().username;
  // The desktop owner is the operator of their local tenant.
  const roles = ['Operator'];
  ipcMain.handle(IPC_CHANNELS.session, async (): Promise<DesktopSession> => ({
    controlPanelUrl: server.controlPanelUrl(),
    accessToken: await server.issueToken({ userName, roles }),
    userName,
    roles,
  }));
  ipcMain.handle(IPC_CHANNELS.openFile, async (_event, options: { title: string; extensions: string[] }) => {
    const result = await dialog.showOpenDialog({
      title: options.title,
      properties: ['openFile'],
      filters: [{ name: 'Documents', extensions: options.extensions }],
    });
    const path = result.filePaths[0];
    if (result.canceled || !path) return null;
    return { name: basename(path), contentBase64: (await readFile(path)).toString('base64') };
  });
  ipcMain.handle(
    IPC_CHANNELS.saveFile,
    async (_event, options: { title: string; defaultName: string; content: string }) => {
      const result = await dialog.showSaveDialog({ title: options.title, defaultPath: options.defaultName });
      if (result.canceled || !result.filePath) return null;
      await writeFile(result.filePath, options.content);
      return result.filePath;
    },
  );
  ipcMain.handle(IPC_CHANNELS.revealDataFolder, async () => {
    await shell.openPath(dataDir);
  });
}

async function openWindow(server: Gatehouse): Promise<void> {
  const state = await loadWindowState();
  mainWindow = new BrowserWindow({
    ...state.bounds,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Gatehouse',
    webPreferences: {
      preload: join(here, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  });
  if (state.maximized) mainWindow.maximize();
  trackWindowState(mainWindow);
  const origin = new URL(server.controlPanelUrl()).origin;
  mainWindow.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https:') || url.startsWith('http:')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  mainWindow.webContents.on('will-navigate', (event, url) => {
    if (new URL(url).origin !== origin) {
      event.preventDefault();
      void shell.openExternal(url);
    }
  });
  // The console's beforeunload (unsaved editor changes) would otherwise block a reload or close silently.
  mainWindow.webContents.on('will-prevent-unload', (event) => {
    const choice = dialog.showMessageBoxSync(mainWindow!, {
      type: 'question',
      buttons: ['Leave and discard', 'Stay'],
      defaultId: 1,
      cancelId: 1,
      message: 'Leave without saving?',
      detail: 'The Passthrough configuration has unsaved changes.',
    });
    if (choice === 0) event.preventDefault();
  });
  mainWindow.once('ready-to-show', () => mainWindow?.show());
  mainWindow.on('closed', () => {
    mainWindow = undefined;
  });
  await mainWindow.loadURL(server.controlPanelUrl());
}

let quitting = false;
app.on('window-all-closed', () => {
  if (quitting) return;
  quitting = true;
  void (gatehouse?.close() ?? Promise.resolve()).finally(() => app.quit());
});

app.on('before-quit', (event) => {
  if (!gatehouse || quitting) return;
  event.preventDefault();
  quitting = true;
  void gatehouse.close().finally(() => app.exit(0));
});

function fail(error: unknown): void {
  dialog.showErrorBox('Gatehouse could not start', error instanceof Error ? error.message : String(error));
  app.exit(1);
}
