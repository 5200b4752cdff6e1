import { expect, test } from './gatehouse-fixture.js';
import { navigation, signInWithLink } from './support/console.js';

test('the console and Swagger UI load from the Control Panel', async ({ page, gatehouse }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await signInWithLink(page, gatehouse);
  await expect(navigation(page).getByRole('link', { name: 'Audit log' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'APIs' })).toBeVisible();
  expect(errors, 'no console errors (CSP violations included)').toEqual([]);
  await page.goto(`${gatehouse.controlPanelUrl}/swagger/index.html`);
  await expect(page.getByText('Gatehouse management API')).toBeVisible();
});
