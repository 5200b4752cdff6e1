import { expect, test } from './gatehouse-fixture.js';

test('the console and Swagger UI load from the Control Panel', async ({ page, gatehouse }) => {
  await page.goto(gatehouse.signInUrl);
  await expect(page.getByRole('heading', { name: 'Gatehouse' })).toBeVisible();
  await page.goto(`${gatehouse.controlPanelUrl}/swagger/index.html`);
  await expect(page.getByText('Gatehouse management API')).toBeVisible();
});
