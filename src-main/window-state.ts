import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { app, screen, type BrowserWindow, type Rectangle } from 'electron';

interface WindowState {
  bounds: Partial<Rectangle> & { width: number; height: number };
  maximized: boolean;
}

const DEFAULT_STATE: WindowState = { bounds: { width: 1280, height: 820 }, maximized: false };
const file = () => join(app.getPath('userData'), 'window-state.json');

function visible(bounds: Partial<Rectangle>): boolean {
  if (bounds.x === undefined || bounds.y === undefined) return true;
  return screen.getAllDisplays().some(({ workArea }) => {
    const { x = 0, y = 0 } = bounds;
    return (
      x >= workArea.x - 50 &&
      y >= workArea.y - 50 &&
      x < workArea.x + workArea.width &&
      y < workArea.y + workArea.height
    );
  });
}

/** Size and position of the last session, unless that display is gone. */
export async function loadWindowState(): Promise<WindowState> {
  try {
    // Written by an earlier session, maybe by an older release or cut short: any field may be missing.
    const parsed = JSON.parse(await readFile(file(), 'utf8')) as Partial<WindowState>;
    const { bounds } = parsed;
    if (bounds && bounds.width > 200 && bounds.height > 200 && visible(bounds))
      return { bounds, maximized: parsed.maximized === true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      console.warn('window state ignored:', (error as Error).message);
  }
  return DEFAULT_STATE;
}

export function trackWindowState(window: BrowserWindow): void {
  let timer: NodeJS.Timeout | undefined;
  const save = () => {
    if (window.isDestroyed()) return;
    const state: WindowState = { bounds: window.getNormalBounds(), maximized: window.isMaximized() };
    writeFile(file(), JSON.stringify(state)).catch((error: unknown) =>
      console.warn('window state not saved:', (error as Error).message),
    );
  };
  const debounced = () => {
    clearTimeout(timer);
    timer = setTimeout(save, 500);
  };
  window.on('resize', debounced);
  window.on('move', debounced);
  window.on('close', save);
}
