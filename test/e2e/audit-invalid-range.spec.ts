import { expect, test } from '@playwright/test';
import { startGatehouse, type StartedGatehouse } from './gatehouse-fixture.js';
import { generateEntries } from './support/audit-entries.js';
import { auditGrid, paginationLabel, typeUtcDateTime } from './support/audit-log.js';
import { signInWithToken } from './support/console.js';

const newest = new Date(Date.now() - 60_000);
let gatehouse: StartedGatehouse;

test.beforeAll(async () => {
  gatehouse = await startGatehouse({
    auditImports: [{ entries: generateEntries(40, newest) }],
    settings: { 'Flags:EnableServiceApiAuditLogRoute': 'true' },
  });
});
test.afterAll(() => gatehouse.stop());

test('an end typed before the start hides the list instead of showing the unfiltered one as if filtered', async ({
  page,
}) => {
  await signInWithToken(page, gatehouse, 'Auditor', 'range-auditor', '/audit-log');
  await expect(paginationLabel(page)).toHaveText(/of 4\d$/);
  await typeUtcDateTime(page, 'From (UTC)', new Date(Date.now() - 3_600_000));
  await typeUtcDateTime(page, 'To (UTC)', new Date(Date.now() - 7_200_000));
  await expect(page.getByText('The end must not be before the start.')).toBeVisible();
  await expect(page.getByTestId('audit-filter-invalid')).toHaveText(
    'No entries are shown while the filter has a problem. Correct the field marked above.',
  );
  await expect(auditGrid(page)).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Export/ })).toHaveCount(0);

  // Corrected, the list is the filtered one.
  await typeUtcDateTime(page, 'To (UTC)', new Date(Date.now() + 3_600_000));
  await expect(page.getByTestId('audit-filter-invalid')).toHaveCount(0);
  await expect(paginationLabel(page)).toHaveText(/of \d+$/);
  await expect(page).toHaveURL(/endDateTimeUtc=/);
});

test('the same range from a URL gives one clear message, no request the API would refuse, no Retry', async ({
  page,
}) => {
  const refused: string[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/api/v1/audit-log?') && response.status() === 400)
      refused.push(response.url());
  });
  await signInWithToken(
    page,
    gatehouse,
    'Auditor',
    'range-auditor',
    '/audit-log?startDateTimeUtc=2026-03-02T00:00:00Z&endDateTimeUtc=2026-03-01T00:00:00Z',
  );
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  await expect(page.getByText('The end must not be before the start.')).toBeVisible();
  await expect(page.getByTestId('audit-filter-invalid')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  await expect(auditGrid(page)).toHaveCount(0);
  expect(refused).toEqual([]);
});
