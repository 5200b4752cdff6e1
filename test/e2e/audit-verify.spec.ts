import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { expect, test } from '@playwright/test';
import { startGatehouse, type StartedGatehouse } from './gatehouse-fixture.js';
import { generateEntries, writeNdjson } from './support/audit-entries.js';
import { expectNoSeriousViolations } from './support/accessibility.js';
import { signInWithToken } from './support/console.js';

const acme = generateEntries(8, new Date(Date.now() - 60_000));
// A trail large enough to be walked in several batches, one entry a second.
const BULK = 12_000;
const bulk = generateEntries(BULK, new Date(Date.now() - 60_000)).map((entry, index) => ({
  ...entry,
  id: entry.id + 100_000,
  timestamp: new Date(Date.now() - 60_000 - index * 1_000).toISOString(),
}));
let gatehouse: StartedGatehouse;
let importDir: string;

test.beforeAll(async () => {
  importDir = await mkdtemp(join(tmpdir(), 'gatehouse-verify-'));
  gatehouse = await startGatehouse({
    auditImports: [
      { file: await writeNdjson(importDir, 'acme.ndjson', acme), tenant: 'acme' },
      { file: await writeNdjson(importDir, 'bulk.ndjson', bulk), tenant: 'bulk' },
    ],
    settings: { 'Flags:EnableServiceApiAuditLogRoute': 'true' },
  });
});
test.afterAll(async () => {
  await gatehouse.stop();
  await rm(importDir, { recursive: true, force: true });
});

test('the Verify button shows the trail intact, then the entry edited in the database file', async ({
  page,
}) => {
  await signInWithToken(page, gatehouse, 'Auditor', 'verify-auditor', '/audit-log?tenant=acme');
  await page.getByRole('button', { name: 'Verify' }).click();
  const dialog = page.getByRole('dialog', { name: 'Tamper evidence' });
  await expect(dialog.getByTestId('audit-verdict-acme')).toContainText('acme: intact');
  await expect(dialog.getByRole('status')).toContainText('8 entries checked');
  await expectNoSeriousViolations(page, 'the audit verification dialog');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  // Someone edits an entry in the database file behind the running server's back.
  const file = new Sqlite(join(gatehouse.dataDir, 'gatehouse.db'));
  try {
    const changed = file
      .prepare(
        "update audit_entries set entry = replace(entry, '\"timestamp\"', '\"timestamp\" ') where tenant = 'acme' and chain_seq = 3",
      )
      .run();
    expect(changed.changes).toBe(1);
  } finally {
    file.close();
  }
  await page.getByRole('button', { name: 'Verify' }).click();
  const verdict = dialog.getByTestId('audit-verdict-acme');
  await expect(verdict).toContainText(/acme: edited at place 3 \(entry \d+\)/);
  await expect(verdict).toContainText('was changed after it was recorded');
  await expect(dialog.getByRole('status')).toContainText('Not intact');
});

test('the Verify dialog shows the entries checked of the total, then the verdict', async ({ page }) => {
  await signInWithToken(page, gatehouse, 'Auditor', 'verify-progress', '/audit-log?tenant=bulk');
  // The server's answers are held in the browser until the dialog was looked at: a walk of 12,000 entries is
  // over faster than a screen can be checked. The run and its progress are the server's own.
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/v1\/audit-log\/verification\/runs\/[^/?]+$/, async (route) => {
    await released;
    await route.continue();
  });
  await page.getByRole('button', { name: 'Verify' }).click();
  const dialog = page.getByRole('dialog', { name: 'Tamper evidence' });
  const status = dialog.getByRole('status');
  await expect(status).toContainText(/Verifying the hash chain: \d[\d,]* of 12,000 entries checked/);
  await expect(dialog.getByRole('progressbar', { name: 'Entries checked' })).toHaveAttribute(
    'aria-valuetext',
    /of 12,000 entries/,
  );
  await expectNoSeriousViolations(page, 'the audit verification dialog in progress');
  release();
  await expect(dialog.getByTestId('audit-verdict-bulk')).toContainText('bulk: intact');
  await expect(status).toContainText(`${BULK} entries checked`);
  await expect(dialog.getByRole('progressbar')).toBeHidden();
});
