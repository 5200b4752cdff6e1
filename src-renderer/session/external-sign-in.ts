import * as oauth from 'oauth4webapi';
import type { ExternalSignInOptions } from '../api/types.js';

/** What survives the trip to the identity provider and back (this tab only). */
interface PendingSignIn extends ExternalSignInOptions {
  codeVerifier: string;
  state: string;
  redirectUri: string;
}

const PENDING_KEY = 'gatehouse.external-sign-in';

/** http is accepted only on a loopback host, as the server accepts it for the authority. */
function insecureAllowed(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  return protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(hostname);
}

function authorizationServer(options: ExternalSignInOptions): oauth.AuthorizationServer {
  return {
    issuer: options.issuer,
    authorization_endpoint: options.authorizationEndpoint,
    token_endpoint: options.tokenEndpoint,
  };
}

/**
 * Starts signing in with the external identity provider: authorization code with PKCE (S256) and a random
 * state; the provider sends the browser back to this console's root with the code.
 */
export async function beginExternalSignIn(
  options: ExternalSignInOptions,
  beforeLeaving?: (authorizationEndpoint: string) => Promise<void>,
): Promise<void> {
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const redirectUri = `${window.location.origin}/`;
  const pending: PendingSignIn = { ...options, codeVerifier, state, redirectUri };
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  const url = new URL(options.authorizationEndpoint);
  url.searchParams.set('client_id', options.clientId);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('scope', options.scope);
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('state', state);
  await beforeLeaving?.(url.href);
  window.location.assign(url.href);
}

/** The provider sent the browser back here (with a code or an error) for a sign-in this tab started. */
export function externalSignInReturned(): boolean {
  const query = new URLSearchParams(window.location.search);
  return (
    sessionStorage.getItem(PENDING_KEY) !== null &&
    query.has('state') &&
    (query.has('code') || query.has('error'))
  );
}

/**
 * Finishes the sign-in the provider sent the browser back from: checks the state, takes the code and its query
 * out of the address bar, and exchanges it (with the PKCE verifier) for an access token.
 */
export async function completeExternalSignIn(): Promise<{ accessToken: string; expiresAt?: number }> {
  const pending = JSON.parse(sessionStorage.getItem(PENDING_KEY) ?? '{}') as PendingSignIn;
  sessionStorage.removeItem(PENDING_KEY);
  const returnedTo = new URL(window.location.href);
  window.history.replaceState(window.history.state, '', returnedTo.pathname);
  const as = authorizationServer(pending);
  const client: oauth.Client = { client_id: pending.clientId };
  const parameters = oauth.validateAuthResponse(as, client, returnedTo.searchParams, pending.state);
  // Deprecated to stand out: plain HTTP is allowed only for a provider on this computer's loopback (development).
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  const insecure = { [oauth.allowInsecureRequests]: insecureAllowed(pending.tokenEndpoint) };
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    oauth.None(),
    parameters,
    pending.redirectUri,
    pending.codeVerifier,
    insecure,
  );
  const result = await oauth.processAuthorizationCodeResponse(as, client, response);
  return {
    accessToken: result.access_token,
    expiresAt: typeof result.expires_in === 'number' ? Date.now() + result.expires_in * 1000 : undefined,
  };
}
