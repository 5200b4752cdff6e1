import { expect, test } from '@playwright/test';
import { startGatehouse, type StartedGatehouse } from './gatehouse-fixture.js';
import { signInWithToken } from './support/console.js';

let gatehouse: StartedGatehouse;
test.beforeAll(async () => {
  gatehouse = await startGatehouse();
});
test.afterAll(async () => {
  await gatehouse.stop();
});

test('the tenant settings show the backups and the restorable window; an Operator backs up now', async ({
  page,
}) => {
  await signInWithToken(page, gatehouse, 'Operator', 'backup-operator', '/tenant-settings');
  const card = page.getByRole('region', { name: 'Backups' });
  await expect(card.getByTestId('backup-count')).toHaveText('0');
  await expect(card.getByTestId('restorable-window')).toContainText('UTC');

  await card.getByRole('button', { name: 'Back up now' }).click();
  await expect(page.getByText('Backup taken')).toBeVisible();
  await expect(card.getByTestId('backup-count')).toHaveText('1');
  const rows = card.getByRole('table', { name: 'Backups, newest first' }).getByRole('row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText('full');
  await expect(rows.nth(1)).toContainText(/\d+(\.\d)? (KB|MB)/);

  await card.getByRole('button', { name: 'Back up now' }).click();
  await expect(card.getByTestId('backup-count')).toHaveText('2');
  await expect(rows.nth(1)).toContainText('differential');
});

test('an Administrator sees the backups but cannot start one', async ({ page }) => {
  await signInWithToken(page, gatehouse, 'Administrator', 'backup-admin', '/tenant-settings');
  const card = page.getByRole('region', { name: 'Backups' });
  await expect(card.getByTestId('backup-count')).toHaveText('2');
  await expect(card.getByRole('button', { name: 'Back up now' })).toBeDisabled();
});
