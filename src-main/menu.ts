import { join } from 'node:path';
import { Menu, shell, type MenuItemConstructorOptions } from 'electron';
import { packageInfo, type Gatehouse } from '../src-server/index.js';

/** The usual menus, plus Help → README, Swagger UI and the data folder. */
export function installMenu(server: Gatehouse, dataDir: string): void {
  const isMac = process.platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [
    ...(isMac ? [{ role: 'appMenu' as const }] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    { role: 'viewMenu' },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [
        { label: 'README', click: () => void shell.openPath(join(packageInfo().root, 'README.md')) },
        {
          label: 'Swagger UI',
          click: () => void shell.openExternal(`${server.controlPanelUrl()}/swagger/index.html`),
        },
        { type: 'separator' },
        { label: 'Reveal data folder', click: () => void shell.openPath(dataDir) },
      ],
    },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
