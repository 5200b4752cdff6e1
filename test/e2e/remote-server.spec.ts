import { expect, test, type Page } from '@playwright/test';
import { startGatehouse, type StartedGatehouse } from './gatehouse-fixture.js';
import { signInWithLink } from './support/console.js';
import { managementApi } from './support/management-api.js';
import {
  startTestAuthorizationServer,
  type TestAuthorizationServer,
} from '../helpers/oidc-authorization-server.js';

// This computer's server, and a team server whose console also signs in with an external identity provider.
let local: StartedGatehouse;
let team: StartedGatehouse;
let identityProvider: TestAuthorizationServer;

test.beforeAll(async () => {
  identityProvider = await startTestAuthorizationServer({
    rolesOf: (user) => (user.startsWith('auditor') ? ['Auditor'] : ['Operator']),
  });
  [local, team] = await Promise.all([
    startGatehouse(),
    startGatehouse({
      settings: {
        'Auth:External:Authority': identityProvider.issuer,
        'Auth:External:Audience': identityProvider.audience,
        'Auth:External:ConsoleClientId': identityProvider.clientId,
      },
    }),
  ]);
});
test.afterAll(async () => {
  await Promise.all([local.stop(), team.stop()]);
  await identityProvider.close();
});

test.describe.configure({ mode: 'serial' });

const hostOf = (gatehouse: StartedGatehouse) => new URL(gatehouse.controlPanelUrl).host;

async function expectOnServer(page: Page, gatehouse: StartedGatehouse) {
  await expect(page.getByTestId('server-address')).toHaveText(hostOf(gatehouse));
  await expect(page).toHaveTitle(new RegExp(`· Gatehouse \\(${hostOf(gatehouse).replace(/\./g, '\\.')}\\)$`));
  expect(new URL(page.url()).origin).toBe(new URL(gatehouse.controlPanelUrl).origin);
}

async function createEnvironment(page: Page, name: string) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Environment variables' })
    .click();
  const environments = page.getByRole('region', { name: 'Environments' });
  await environments.getByRole('button', { name: 'New environment' }).click();
  const form = page.getByRole('dialog', { name: 'New environment' });
  await form.getByRole('textbox', { name: 'Environment name' }).fill(name);
  await form.getByRole('button', { name: 'Add' }).click();
  await expect(environments.getByRole('row', { name: new RegExp(name) })).toBeVisible();
}

async function environmentNames(gatehouse: StartedGatehouse): Promise<string[]> {
  const api = await managementApi(gatehouse);
  const page = await api.call<{ data: { name: string }[] }>('GET', '/api/v1/environments?PageSize=200');
  return page.data.map((environment) => environment.name);
}

test("a team server's one-time sign-in link, pasted into this computer's console, signs in on the team server", async ({
  page,
}) => {
  await page.goto(local.controlPanelUrl);
  await expect(page.getByTestId('sign-in-server')).toHaveText(hostOf(local));
  await page.getByLabel('Sign-in link or bearer token').fill(team.signInUrl);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByTestId('signed-in-user')).toBeVisible();
  await expectOnServer(page, team);
  // The ticket left the address bar there as well.
  expect(page.url()).not.toContain('signin=');
});

test('the console connects to another Control Panel, signs in there and works on it as on its own', async ({
  page,
}) => {
  await signInWithLink(page, local);
  await expectOnServer(page, local);

  await page.getByRole('button', { name: `Server: ${hostOf(local)}. Change server` }).click();
  const dialog = page.getByRole('dialog', { name: 'Connect to a Control Panel' });
  await dialog.getByRole('textbox', { name: 'Control Panel address' }).fill('ftp://nowhere');
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await expect(dialog.getByText('The address must start with http:// or https://.')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Control Panel address' }).fill(team.controlPanelUrl);
  await dialog.getByRole('button', { name: 'Connect' }).click();

  await expect(page.getByRole('heading', { name: 'Sign in to Gatehouse' })).toBeVisible();
  await expect(page.getByTestId('sign-in-server')).toHaveText(hostOf(team));
  await page
    .getByLabel('Sign-in link or bearer token')
    .fill(await team.token('Operator', { user: 'team-admin' }));
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByTestId('signed-in-user')).toHaveText('team-admin');
  await expectOnServer(page, team);

  await createEnvironment(page, 'Team staging');
  expect(await environmentNames(team)).toContain('Team staging');
  expect(await environmentNames(local)).not.toContain('Team staging');
});

test("the team server's external identity provider signs the console in (authorization code + PKCE)", async ({
  page,
}) => {
  await page.goto(team.controlPanelUrl);
  await expect(page.getByRole('heading', { name: 'Sign in to Gatehouse' })).toBeVisible();
  await expect(
    page.getByText(`This server trusts the identity provider ${new URL(identityProvider.issuer).host}`),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Sign in with the identity provider' }).click();

  // The provider's own sign-in page (its development login: any user name and password).
  await expect(page).toHaveURL(new RegExp(`^${identityProvider.issuer}/`));
  await page.locator('input[name="login"]').fill('alice.team');
  await page.locator('input[name="password"]').fill('any password');
  await page.locator('button[type="submit"]').click();
  // It asks a native (loopback) client's user to confirm every time.
  await expect(page.getByRole('heading', { name: 'Authorize' })).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page.getByTestId('signed-in-user')).toHaveText('alice.team');
  await expect(page.getByRole('banner').getByText('Operator', { exact: true })).toBeVisible();
  await expectOnServer(page, team);
  expect(page.url()).not.toMatch(/[?&](code|state)=/);
  const stored = await page.evaluate(() => sessionStorage.getItem('gatehouse.session'));
  expect(stored).toContain('"origin":"identity-provider"');

  // The token is the provider's, accepted by the team server's Control Panel like its own.
  await createEnvironment(page, 'Signed in elsewhere');
  expect(await environmentNames(team)).toContain('Signed in elsewhere');
});

test('a sign-in the provider refuses comes back as a clear notice', async ({ page }) => {
  await page.goto(team.controlPanelUrl);
  await page.getByRole('button', { name: 'Sign in with the identity provider' }).click();
  await expect(page).toHaveURL(new RegExp(`^${identityProvider.issuer}/`));
  // Coming back with a state this tab never sent is refused before any code is exchanged.
  await page.goto(`${team.controlPanelUrl}/?code=stolen&state=not-ours`);
  await expect(page.getByText('Signing in with the identity provider did not work')).toBeVisible();
  await expect(page.getByTestId('signed-in-user')).toHaveCount(0);
});
