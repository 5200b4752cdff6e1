import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Locator } from '@playwright/test';

export interface DroppedFile {
  name: string;
  content: string;
  type?: string;
}

export async function droppedFileFrom(path: string, type?: string): Promise<DroppedFile> {
  return { name: basename(path), content: await readFile(path, 'utf8'), ...(type ? { type } : {}) };
}

/**
 * Drags a file over the target and drops it: dragenter, dragover and drop carrying a real DataTransfer built in
 * the page (Playwright's mouse drag cannot carry files from outside the page).
 */
export async function dropFile(target: Locator, file: DroppedFile): Promise<void> {
  const dataTransfer = await target.page().evaluateHandle(({ name, content, type }) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([content], name, { type: type ?? '' }));
    return transfer;
  }, file);
  for (const type of ['dragenter', 'dragover', 'drop']) {
    await target.dispatchEvent(type, { dataTransfer });
  }
  await dataTransfer.dispose();
}
