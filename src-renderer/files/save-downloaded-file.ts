import type { DownloadedFile } from '../api/api-client.js';
import { desktopBridge } from '../session/desktop-bridge.js';

/** Where the file went: a path chosen in the desktop app's save dialog, the browser's downloads, or nowhere. */
export type SaveOutcome =
  { kind: 'saved'; path: string } | { kind: 'downloaded'; fileName: string } | { kind: 'cancelled' };

/** In the desktop app through its save dialog; in a browser as a download of a blob URL. */
export async function saveDownloadedFile(file: DownloadedFile, title: string): Promise<SaveOutcome> {
  const bridge = desktopBridge();
  if (bridge) {
    const path = await bridge.saveFile({
      title,
      defaultName: file.fileName,
      content: await file.blob.text(),
    });
    return path ? { kind: 'saved', path } : { kind: 'cancelled' };
  }
  const url = URL.createObjectURL(file.blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = file.fileName;
  anchor.style.display = 'none';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // The download has started from the URL by now; revoking later keeps slow browsers safe.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return { kind: 'downloaded', fileName: file.fileName };
}
