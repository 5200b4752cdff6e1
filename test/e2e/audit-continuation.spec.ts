import { expect, test } from '@playwright/test';
import { startGatehouse, type StartedGatehouse } from './gatehouse-fixture.js';
import { paginationLabel } from './support/audit-log.js';
import { generateEntries } from './support/audit-entries.js';
import { signInWithToken } from './support/console.js';

interface Page {
  items: { id: number }[];
  totalCount: number;
  continuationToken?: string;
}

let gatehouse: StartedGatehouse;

test.beforeAll(async () => {
  gatehouse = await startGatehouse({
    auditImports: [{ entries: generateEntries(80, new Date(Date.now() - 60_000)) }],
    settings: { 'Flags:EnableServiceApiAuditLogRoute': 'true' },
  });
});
test.afterAll(() => gatehouse.stop());

test('the next page follows the shown page, however many entries were recorded meanwhile', async ({
  page,
}) => {
  const operator = await gatehouse.token('Operator');
  const list = async (query: string): Promise<Page> => {
    const response = await fetch(`${gatehouse.controlPanelUrl}/api/v1/audit-log?${query}`, {
      headers: { Authorization: `Bearer ${operator}` },
    });
    return (await response.json()) as Page;
  };
  const before = await list('PageSize=60');

  const firstPage = page.waitForResponse((response) => response.url().includes('/api/v1/audit-log?'));
  await signInWithToken(page, gatehouse, 'Auditor', 'walking-auditor', '/audit-log');
  const shown = (await (await firstPage).json()) as Page;
  await expect(paginationLabel(page)).toHaveText(`1–30 of ${before.totalCount}`);

  // Five changes are recorded while the first page is on screen: by page number, page 2 would repeat five rows.
  for (let k = 0; k < 5; k += 1) {
    const created = await fetch(`${gatehouse.controlPanelUrl}/api/v1/environments`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${operator}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: `walk-${k}` }),
    });
    expect(created.status).toBe(201);
  }

  const nextPage = page.waitForResponse((response) => response.url().includes('/api/v1/audit-log?'));
  await page.getByRole('button', { name: 'Go to next page' }).click();
  const response = await nextPage;
  const asked = new URL(response.url()).searchParams;
  expect(asked.get('continuationToken')).toBe(shown.continuationToken);
  expect(asked.has('PageNumber')).toBe(false);
  const next = (await response.json()) as Page;
  expect(next.items.map((item) => item.id)).toEqual(before.items.slice(30, 60).map((item) => item.id));
  await expect(page).toHaveURL(/PageNumber=2/);
  await expect(paginationLabel(page)).toHaveText(`31–60 of ${before.totalCount + 5}`);

  // Back to a page by its number: asked for as the URL says.
  const previous = page.waitForResponse((r) => r.url().includes('/api/v1/audit-log'));
  await page.getByRole('button', { name: 'Go to previous page' }).click();
  expect(new URL((await previous).url()).searchParams.has('continuationToken')).toBe(false);
});
