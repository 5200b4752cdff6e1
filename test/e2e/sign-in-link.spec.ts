import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test, type Page } from '@playwright/test';
import { startGatehouse, type StartedGatehouse } from './gatehouse-fixture.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const shell = promisify(execFile);

let gatehouse: StartedGatehouse;
test.beforeAll(async () => {
  gatehouse = await startGatehouse();
});
test.afterAll(async () => {
  await gatehouse.stop();
});

/** Runs a command exactly as the sign-in screen shows it, from the clone's folder, on the test's data dir. */
async function runAsShown(command: string): Promise<string> {
  expect(command).toMatch(/^npx gatehouse /);
  const { stdout } = await shell('sh', ['-c', `${command} --data-dir '${gatehouse.dataDir}'`], { cwd: ROOT });
  return stdout.trim();
}

async function shownCommands(page: Page): Promise<string[]> {
  return page.locator('pre code').allTextContents();
}

/** Marks the document, to tell a fragment change (same document) from a page load. */
async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { sameDocument?: boolean }).sameDocument = true;
  });
}
const isSameDocument = (page: Page) =>
  page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument === true);

test("the sign-in screen's commands run from a clone: a token that can configure, and a fresh link", async ({
  page,
}) => {
  await page.goto(gatehouse.controlPanelUrl);
  await expect(page.getByRole('heading', { name: 'Sign in to Gatehouse' })).toBeVisible();
  const [linkCommand, tokenCommand] = await shownCommands(page);
  expect(linkCommand).toBe('npx gatehouse link');
  expect(tokenCommand).toBe('npx gatehouse token --roles Administrator');

  await page.getByLabel('Sign-in link or bearer token').fill(await runAsShown(tokenCommand!));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('banner').getByText('Administrator', { exact: true })).toBeVisible();
  // A role that configures: it may import APIs.
  await expect(page.getByRole('button', { name: 'Import API' }).first()).toBeVisible();
  await page.getByRole('button', { name: 'Sign out' }).click();

  // The link `gatehouse link` prints, opened in this tab (already at the console): only the fragment changes.
  const printed = await runAsShown(linkCommand!);
  const link = /(http:\/\/\S+#signin=\S+)/.exec(printed)![1]!;
  expect(new URL(link).origin).toBe(gatehouse.controlPanelUrl);
  await page.goto(`${gatehouse.controlPanelUrl}/`);
  await expect(page.getByRole('heading', { name: 'Sign in to Gatehouse' })).toBeVisible();
  await markDocument(page);
  await page.goto(link);
  await expect(page.getByTestId('signed-in-user')).toHaveText(/\S+/);
  await expect(page.getByRole('banner').getByText('Operator', { exact: true })).toBeVisible();
  expect(await isSameDocument(page)).toBe(true);
  expect(page.url()).not.toContain('signin=');

  // The same link again, pasted into the signed-in tab: it is spent, said so, and the session goes on.
  await markDocument(page);
  await page.evaluate((hash) => {
    window.location.hash = hash;
  }, new URL(link).hash);
  await expect(page.getByText('The sign-in link did not work')).toBeVisible();
  await expect(page.getByTestId('signed-in-user')).toBeVisible();
  expect(await isSameDocument(page)).toBe(true);
});

test('a spent link pasted into the address bar of the sign-in screen says why it did not work', async ({
  page,
}) => {
  await page.goto(gatehouse.controlPanelUrl);
  await expect(page.getByRole('heading', { name: 'Sign in to Gatehouse' })).toBeVisible();
  const link = /(http:\/\/\S+#signin=\S+)/.exec(await runAsShown('npx gatehouse link'))![1]!;
  const session = await fetch(`${gatehouse.controlPanelUrl}/api/v1/session/sign-in`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ticket: new URL(link).hash.slice('#signin='.length) }),
  });
  expect(session.status).toBe(200);
  await page.goto(link);
  await expect(page.getByText('The sign-in link did not work')).toBeVisible();
  await expect(page.getByText(/npx gatehouse link/).first()).toBeVisible();
});
