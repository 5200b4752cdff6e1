import { expect, test } from '@playwright/test';
import { startGatehouse, type StartedGatehouse } from './gatehouse-fixture.js';
import { navigation, openScreen, signInWithLink, signInWithToken } from './support/console.js';

let gatehouse: StartedGatehouse;
test.beforeAll(async () => {
  gatehouse = await startGatehouse();
});
test.afterAll(async () => {
  await gatehouse.stop();
});

test.describe.configure({ mode: 'serial' });

test('the one-time link signs in, leaves the address bar, and works only once', async ({ page, browser }) => {
  await signInWithLink(page, gatehouse);
  expect(page.url()).not.toContain('signin=');
  expect(new URL(page.url()).pathname).toBe('/apis');
  await expect(page.getByRole('banner').getByText('Operator', { exact: true })).toBeVisible();
  const stored = await page.evaluate(() => sessionStorage.getItem('gatehouse.session'));
  expect(stored).toContain('accessToken');

  // The session survives a reload of the tab.
  await page.goto(`${gatehouse.controlPanelUrl}/tenant-settings`);
  await expect(page.getByRole('heading', { level: 1, name: 'Tenant settings' })).toBeVisible();

  const other = await browser.newPage();
  await other.goto(gatehouse.signInUrl);
  await expect(other.getByRole('heading', { name: 'Sign in to Gatehouse' })).toBeVisible();
  await expect(other.getByText('The sign-in link did not work')).toBeVisible();
  await expect(other.getByText(/unknown, already used or expired/)).toBeVisible();
  await other.close();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Gatehouse' })).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem('gatehouse.session'))).toBeNull();
});

test('a pasted token that the Control Panel refuses is reported in the form', async ({ page }) => {
  await page.goto(gatehouse.controlPanelUrl);
  await page.getByLabel('Sign-in link or bearer token').fill('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.bad');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Sign-in failed' })).toBeVisible();
  await expect(page.getByTestId('signed-in-user')).toHaveCount(0);
});

test('the console can be used with the keyboard alone', async ({ page }) => {
  await signInWithToken(page, gatehouse, 'Operator', 'keyboard-user');
  await page.keyboard.press('Tab');
  const skipLink = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skipLink).toBeFocused();
  await expect(skipLink).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();

  // From the top: skip link, the top bar's controls, then the navigation links in order.
  await page.locator('body').focus();
  const auditLink = navigation(page).getByRole('link', { name: 'Audit log' });
  for (
    let presses = 0;
    presses < 15 && !(await auditLink.evaluate((link) => link === document.activeElement));
    presses++
  ) {
    await page.keyboard.press('Tab');
  }
  await expect(auditLink).toBeFocused();
  const outline = await auditLink.evaluate((link) => getComputedStyle(link).outlineStyle);
  expect(outline).not.toBe('none');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/audit-log$/);
  const heading = page.getByRole('heading', { level: 1, name: 'Audit log' });
  await expect(heading).toBeFocused();
  await expect(auditLink).toHaveAttribute('aria-current', 'page');

  // Back and forward are the browser's own.
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: 'APIs' })).toBeVisible();
  await page.goForward();
  await expect(heading).toBeVisible();
});

test('the APIs screen, the not-found page and the theme choice', async ({ page }) => {
  await signInWithToken(page, gatehouse, 'Administrator', 'admin-user');
  await openScreen(page, 'APIs');
  await expect(page.getByText('Coming soon')).toHaveCount(0);
  await expect(page.getByTestId('apis-empty-state')).toBeVisible();
  await page.goto(`${gatehouse.controlPanelUrl}/no-such-screen`);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();

  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.emulateMedia({ colorScheme: 'light' });
  const light = await background();
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(background).not.toBe(light);
  const dark = await background();

  await page.emulateMedia({ colorScheme: 'light' });
  await page.getByRole('button', { name: /^Theme:/ }).click();
  await page.getByRole('menuitem', { name: 'Dark' }).click();
  await expect.poll(background).toBe(dark);
  await page.reload();
  await expect(page.getByTestId('signed-in-user')).toBeVisible();
  await expect.poll(background).toBe(dark);
  await expect(page.getByRole('button', { name: 'Theme: Dark' })).toBeVisible();
});

test('an Auditor sees Tenant settings read-only', async ({ page }) => {
  await signInWithToken(page, gatehouse, 'Auditor', 'auditor-user', '/tenant-settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Tenant settings' })).toBeVisible();
  await expect(page.getByTestId('read-only-notice')).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Enable the audit log endpoint' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Restart Control Panel' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Change Auth:TokenLifetimeMinutes' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'New registration' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Application registrations' })).toBeVisible();
});
