import type { Logger } from 'pino';
import { SignInOptionsSchema, type ExternalSignInOptions } from '../../core/contracts/session-schemas.js';
import { defineRoute, type AnyRoute } from '../http/route.js';

/** Where and how the console signs in with the external identity provider (authorization code with PKCE). */
export type ExternalSignIn = ExternalSignInOptions;

export interface SignInOptionsDeps {
  /** Undefined when no external provider with a console client id is configured; throws when it can't be reached. */
  externalSignIn: () => Promise<ExternalSignIn | undefined>;
  logger: Logger;
}

/** `GET /api/v1/session/options`: what the console's sign-in screen offers. Anonymous; nothing secret in it. */
export function signInOptionsRoutes(deps: SignInOptionsDeps): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/session/options',
      activity: 'Identity.Discovery',
      anonymous: true,
      tag: 'Session',
      operationId: 'getSignInOptions',
      summary: 'How the console can sign in here',
      responses: [{ status: 200, description: 'The sign-in methods offered.', schema: SignInOptionsSchema }],
      async handler() {
        try {
          return { body: { signInLink: true as const, external: (await deps.externalSignIn()) ?? null } };
        } catch (error) {
          deps.logger.warn(
            { err: error },
            'the external identity provider could not be discovered for sign-in',
          );
          return {
            body: {
              signInLink: true as const,
              external: null,
              externalUnavailable: 'The external identity provider could not be reached.',
            },
          };
        }
      },
    }),
  ];
}
