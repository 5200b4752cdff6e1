import { expect, test, type Page } from '@playwright/test';
import { startGatehouse, type StartedGatehouse } from './gatehouse-fixture.js';
import { openScreen } from './support/console.js';

let gatehouse: StartedGatehouse;
test.beforeAll(async () => {
  gatehouse = await startGatehouse();
});
test.afterAll(async () => {
  await gatehouse.stop();
});

async function pasteToken(page: Page, token: string): Promise<void> {
  await page.goto(gatehouse.controlPanelUrl);
  await page.getByLabel('Sign-in link or bearer token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('signed-in-user')).toBeVisible();
}

function storedToken(page: Page): Promise<string | undefined> {
  return page.evaluate(() => {
    const stored = JSON.parse(sessionStorage.getItem('gatehouse.session') ?? '{}') as {
      accessToken?: string;
    };
    return stored.accessToken;
  });
}

test('GETs wait for an unreachable Control Panel and say so, then carry on', async ({ page }) => {
  await pasteToken(page, await gatehouse.token('Operator', { user: 'offline-user' }));
  // As while the Control Panel restarts: its connections are refused for a moment.
  await page.route('**/api/v1/tenant/settings**', (route) => route.abort('connectionrefused'));
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tenant settings' }).click();
  const reconnecting = page.getByRole('status').filter({ hasText: 'Reconnecting to the Control Panel…' });
  await expect(reconnecting).toBeVisible();
  await page.unroute('**/api/v1/tenant/settings**');
  await expect(page.getByRole('heading', { name: 'All settings' })).toBeVisible();
  await expect(reconnecting).toBeHidden();
});

test('a session is renewed before its token expires', async ({ page }) => {
  const signedInAt = Date.now();
  const shortLived = await gatehouse.token('Auditor', { user: 'renewing-user', ttl: '7s' });
  await pasteToken(page, shortLived);
  await expect.poll(() => storedToken(page), { timeout: 10_000 }).not.toBe(shortLived);
  await page.waitForTimeout(Math.max(0, signedInAt + 8_000 - Date.now()));
  await openScreen(page, 'Tenant settings');
  await expect(page.getByRole('heading', { name: 'All settings' })).toBeVisible();
});

test('a token the Control Panel no longer accepts leads back to the sign-in screen', async ({ page }) => {
  await pasteToken(page, await gatehouse.token('Auditor', { user: 'refused-user' }));
  // Real tokens stay valid for their lifetime plus a clock tolerance; answer as the Control Panel does once it
  // refuses one (expired, or signed by a rotated key).
  await page.route('**/api/v1/tenant/**', (route) =>
    route.fulfill({
      status: 401,
      contentType: 'application/problem+json',
      body: JSON.stringify({ title: 'Unauthorized', status: 401, detail: 'The token has expired.' }),
    }),
  );
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tenant settings' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Gatehouse' })).toBeVisible();
  await expect(page.getByText('Your session has ended')).toBeVisible();
  expect(await storedToken(page)).toBeUndefined();
});
