import { contextBridge, ipcRenderer } from 'electron';
import { IPC_CHANNELS, type DesktopBridge } from './ipc-channels.js';

const bridge: DesktopBridge = {
  session: () => ipcRenderer.invoke(IPC_CHANNELS.session),
  openFile: (options) => ipcRenderer.invoke(IPC_CHANNELS.openFile, options),
  saveFile: (options) => ipcRenderer.invoke(IPC_CHANNELS.saveFile, options),
  revealDataFolder: () => ipcRenderer.invoke(IPC_CHANNELS.revealDataFolder),
};

contextBridge.exposeInMainWorld('gatehouse', bridge);
