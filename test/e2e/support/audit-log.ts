import { expect, type Page } from '@playwright/test';

export function auditGrid(page: Page) {
  return page.getByRole('grid', { name: 'Audit log entries' });
}

/** "1–30 of 450" under the grid. */
export function paginationLabel(page: Page) {
  return page.locator('.MuiTablePagination-displayedRows');
}

/** Types into the action Autocomplete and picks a suggestion from the activity catalog. */
export async function chooseAction(page: Page, typed: string, option: string): Promise<void> {
  const field = page.getByRole('combobox', { name: 'Action' });
  await field.fill(typed);
  await page.getByRole('option', { name: new RegExp(`^${option.replace('.', '\\.')}`) }).click();
  await expect(field).toHaveValue(option);
}

/** Types a UTC date-time section by section into a date-time picker field, like a keyboard user. */
export async function typeUtcDateTime(page: Page, label: string, value: Date): Promise<void> {
  const iso = value.toISOString();
  const digits = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}`;
  const field = page.getByRole('group', { name: label });
  await field.getByRole('spinbutton').first().click();
  // Select all sections, clear them, then type: each section takes its digits and moves on to the next.
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(digits);
  await expect(field.getByRole('spinbutton').first()).toHaveText(iso.slice(0, 4));
}
