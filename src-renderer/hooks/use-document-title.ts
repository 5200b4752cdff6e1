import { useEffect } from 'react';
import { serverLabel } from '../server/server-address.js';

/** The page title names the screen and the server (the desktop app's window title is the page's). */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Gatehouse (${serverLabel()})`;
  }, [title]);
}
