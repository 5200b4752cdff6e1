import type { DesktopBridge } from '../../src-main/ipc-channels.js';

export type { DesktopBridge, DesktopSession } from '../../src-main/ipc-channels.js';

declare global {
  interface Window {
    /** The Electron preload bridge; absent when the console runs in a browser against `gatehouse serve`. */
    gatehouse?: DesktopBridge;
  }
}

export function desktopBridge(): DesktopBridge | undefined {
  return window.gatehouse;
}
