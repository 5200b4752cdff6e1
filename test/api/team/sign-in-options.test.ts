import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestAuthorizationServer,
  type TestAuthorizationServer,
} from '../../helpers/oidc-authorization-server.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

let identityProvider: TestAuthorizationServer;
let plain: TestServer;
let team: TestServer;

beforeAll(async () => {
  identityProvider = await startTestAuthorizationServer();
  plain = await startTestServer();
  team = await startTestServer({
    settings: {
      'Auth:External:Authority': identityProvider.issuer,
      'Auth:External:Audience': identityProvider.audience,
      'Auth:External:ConsoleClientId': identityProvider.clientId,
    },
  });
});
afterAll(async () => {
  await plain.close();
  await team.close();
  await identityProvider.close();
});

describe('GET /api/v1/session/options (what the sign-in screen offers)', () => {
  it('answers without a token: the sign-in link only, and a console that calls no other origin', async () => {
    const response = await fetch(`${plain.url}/api/v1/session/options`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ signInLink: true, external: null });
    expect(response.headers.get('content-security-policy')).toContain("connect-src 'self';");
  });

  it("names the external provider's endpoints from its discovery document, and lets the console reach its origin", async () => {
    const response = await fetch(`${team.url}/api/v1/session/options`);
    expect(await response.json()).toEqual({
      signInLink: true,
      external: {
        issuer: identityProvider.issuer,
        authorizationEndpoint: `${identityProvider.issuer}/auth`,
        tokenEndpoint: `${identityProvider.issuer}/token`,
        clientId: identityProvider.clientId,
        scope: 'openid profile',
      },
    });
    expect(response.headers.get('content-security-policy')).toContain(
      `connect-src 'self' ${identityProvider.issuer};`,
    );
    const document = (await (await fetch(`${team.url}/swagger/v1/swagger.json`)).json()) as {
      paths: Record<string, unknown>;
    };
    expect(document.paths).toHaveProperty('/api/v1/session/options');
  });

  it('says so when the configured provider cannot be reached, and still offers the sign-in link', async () => {
    const unreachable = await startTestServer({
      settings: {
        'Auth:External:Authority': 'http://127.0.0.1:9',
        'Auth:External:Audience': 'api://x',
        'Auth:External:ConsoleClientId': 'console',
      },
    });
    try {
      const answer = await (await fetch(`${unreachable.url}/api/v1/session/options`)).json();
      expect(answer).toEqual({
        signInLink: true,
        external: null,
        externalUnavailable: 'The external identity provider could not be reached.',
      });
    } finally {
      await unreachable.close();
    }
  });
});
