import { contextBridge, ipcRenderer } from 'electron';
import { IPC_CHANNELS, LOCAL_ORIGIN_ARGUMENT, type DesktopBridge } from './ipc-channels.js';

const localOrigin =
  process.argv
    .find((argument) => argument.startsWith(LOCAL_ORIGIN_ARGUMENT))
    ?.slice(LOCAL_ORIGIN_ARGUMENT.length) ?? '';

const bridge: DesktopBridge = {
  localOrigin,
  connect: (url) => ipcRenderer.invoke(IPC_CHANNELS.connect, url),
  allowSignIn: (authorizationEndpoint) => ipcRenderer.invoke(IPC_CHANNELS.allowSignIn, authorizationEndpoint),
  session: () => ipcRenderer.invoke(IPC_CHANNELS.session),
  openFile: (options) => ipcRenderer.invoke(IPC_CHANNELS.openFile, options),
  saveFile: (options) => ipcRenderer.invoke(IPC_CHANNELS.saveFile, options),
  revealDataFolder: () => ipcRenderer.invoke(IPC_CHANNELS.revealDataFolder),
};

contextBridge.exposeInMainWorld('gatehouse', bridge);
