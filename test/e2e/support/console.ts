import { expect, type Page } from '@playwright/test';
import type { ServedGatehouse } from '../gatehouse-fixture.js';

/** Opens the one-time sign-in link `gatehouse serve` printed and waits for the console. */
export async function signInWithLink(page: Page, gatehouse: ServedGatehouse): Promise<void> {
  await page.goto(gatehouse.signInUrl);
  await expect(page.getByTestId('signed-in-user')).toBeVisible();
}

/** Pastes a token from `gatehouse token --roles <roles>` into the sign-in screen. */
export async function signInWithToken(
  page: Page,
  gatehouse: ServedGatehouse,
  roles: string,
  user?: string,
  path = '/',
): Promise<void> {
  const token = await gatehouse.token(roles, { user });
  await page.goto(`${gatehouse.controlPanelUrl}${path}`);
  await page.getByLabel('Sign-in link or bearer token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('signed-in-user')).toBeVisible();
}

export function navigation(page: Page) {
  return page.getByRole('navigation', { name: 'Main' });
}

export async function openScreen(page: Page, label: string): Promise<void> {
  await navigation(page).getByRole('link', { name: label, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: label })).toBeVisible();
}
