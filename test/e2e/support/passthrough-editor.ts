import { expect, type Page } from '@playwright/test';

/** The editor's contract: inputs "Target URL section 1" … "4", and the preview with its state. */
export function section(page: Page, number: 1 | 2 | 3 | 4) {
  return page.getByLabel(`Target URL section ${number}`, { exact: true });
}

export function preview(page: Page) {
  return page.getByTestId('target-url-preview');
}

/** Waits until the preview shows the result of the current inputs. */
export async function expectPreview(
  page: Page,
  state: 'ready' | 'error',
  text?: string | RegExp,
): Promise<void> {
  await expect(preview(page)).toHaveAttribute('data-preview-state', state);
  if (text !== undefined) await expect(preview(page)).toContainText(text);
}

/** Records every state the preview goes through from now on (a slow machine may miss `pending` by polling). */
export async function recordPreviewStates(page: Page): Promise<() => Promise<string[]>> {
  await page.getByTestId('target-url-preview').evaluate((element) => {
    const states: string[] = [];
    (window as unknown as { previewStates: string[] }).previewStates = states;
    new MutationObserver(() => states.push(element.getAttribute('data-preview-state') ?? '')).observe(
      element,
      {
        attributes: true,
        attributeFilter: ['data-preview-state'],
      },
    );
  });
  return () => page.evaluate(() => (window as unknown as { previewStates: string[] }).previewStates);
}

export function operationList(page: Page) {
  return page.getByRole('listbox', { name: 'Operations' });
}

export function operationOption(page: Page, key: string) {
  return operationList(page).locator(`[data-operation-key="${key}"]`);
}

export function headerRow(page: Page, number: number) {
  return page.locator(`[data-header-row="${number}"]`);
}

/** Adds a header entry through the table: action, name, and value (not for Remove). */
export async function addHeaderEntry(
  page: Page,
  number: number,
  action: 'Add' | 'Overwrite' | 'Remove',
  name: string,
  value?: string,
): Promise<void> {
  await page.getByRole('button', { name: 'Add header entry' }).click();
  const nameField = page.getByRole('combobox', { name: `Header ${number} name` });
  await expect(nameField).toBeFocused();
  await nameField.fill(name);
  await nameField.press('Escape');
  if (action !== 'Add') {
    await page.getByRole('combobox', { name: `Header ${number} action` }).click();
    await page.getByRole('option', { name: action, exact: true }).click();
  }
  if (value !== undefined) await page.getByLabel(`Header ${number} value`, { exact: true }).fill(value);
}

/** An OpenAPI 3.0 document with `count` GET operations `/items/<n>/{itemId}` under the base path /bulk/v1. */
export function bulkApiDocument(count: number): string {
  const paths: Record<string, unknown> = {};
  for (let index = 1; index <= count; index++) {
    paths[`/items/${String(index).padStart(4, '0')}/{itemId}`] = {
      get: {
        operationId: `getItem${index}`,
        summary: `Item group ${index}`,
        parameters: [{ name: 'itemId', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'The item.' } },
      },
    };
  }
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Bulk API', version: '1.0.0' },
    servers: [{ url: 'https://bulk.example.com/bulk/v1' }],
    paths,
  });
}
