import { HttpProblem, unprocessable } from '../../core/http/problem.js';
import {
  CurrentIdentitySchema,
  SessionSchema,
  SignInLinkSchema,
  SignInRequestSchema,
} from '../../core/contracts/session-schemas.js';
import { defineRoute, type AnyRoute } from '../http/route.js';
import { ACTIVITIES } from '../../core/activities/activities.js';
import { rolesAllow } from '../../core/activities/roles.js';
import { TICKET_TTL_MS, type SignInTickets } from './sign-in-tickets.js';
import type { TokenIssuer } from './token-issuer.js';
import { ErrorCode } from '../../core/contracts/error-codes.js';

const TAG = 'Session';

export interface SessionDeps {
  tickets: SignInTickets;
  issuer: TokenIssuer;
  tokenLifetimeSeconds: () => number;
  now: () => Date;
}

export function sessionRoutes(deps: SessionDeps): AnyRoute[] {
  const newSession = async (subject: string, userName: string, roles: string[]) => {
    const expiresIn = deps.tokenLifetimeSeconds();
    const accessToken = await deps.issuer.issue({ subject, userName, roles, ttlSeconds: expiresIn });
    return { accessToken, tokenType: 'Bearer' as const, expiresIn, userName, roles };
  };
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/me',
      activity: 'Session.View',
      tag: TAG,
      operationId: 'getCurrentIdentity',
      summary: "The caller's identity and permissions",
      responses: [{ status: 200, description: 'Who the token belongs to.', schema: CurrentIdentitySchema }],
      handler({ principal }) {
        const roles = principal!.roles;
        return {
          body: {
            userName: principal!.userName,
            kind: principal!.kind,
            roles,
            activities: ACTIVITIES.map((a) => a.name).filter((name) => rolesAllow(roles, name)),
          },
        };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/session/refresh',
      activity: 'Session.Refresh',
      tag: TAG,
      operationId: 'refreshSession',
      summary: 'Exchange a valid console token for a fresh one',
      description:
        'Only for user tokens of the built-in identity provider; the new token carries the same name and roles.',
      responses: [{ status: 200, description: 'A fresh bearer token.', schema: SessionSchema }],
      problems: [422],
      async handler({ principal }) {
        if (principal!.kind !== 'user' || principal!.issuer !== deps.issuer.issuer) {
          throw unprocessable(
            ErrorCode.GH_ERR_SESSION_NOT_REFRESHABLE,
            'Only console sessions of the built-in identity provider can be refreshed.',
          );
        }
        return { body: await newSession(principal!.subject, principal!.userName, principal!.roles) };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/session/sign-in-links',
      activity: 'Session.CreateSignInLink',
      tag: TAG,
      operationId: 'createSignInLink',
      summary: 'A one-time console sign-in link for the caller',
      description:
        '`gatehouse link` asks for one with a token it prints itself: the link signs the browser that opens it in as the caller (same name and roles), once and within ten minutes. Only for user tokens of the built-in identity provider.',
      responses: [{ status: 200, description: 'The link.', schema: SignInLinkSchema }],
      problems: [422],
      async handler({ req, principal }) {
        if (principal!.kind !== 'user' || principal!.issuer !== deps.issuer.issuer) {
          throw unprocessable(
            ErrorCode.GH_ERR_SIGN_IN_LINK_NOT_ALLOWED,
            'Only user tokens of the built-in identity provider can ask for a sign-in link.',
          );
        }
        const expiresAt = new Date(deps.now().getTime() + TICKET_TTL_MS).toISOString();
        const ticket = await deps.tickets.create(principal!.userName, principal!.roles);
        // The Host header was checked against the names this Control Panel serves.
        const origin = `${req.protocol}://${req.headers.host ?? 'localhost'}`;
        return { body: { signInUrl: `${origin}/#signin=${ticket}`, expiresAt } };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/session/sign-in',
      activity: 'Session.SignIn',
      anonymous: true,
      tag: TAG,
      operationId: 'signIn',
      summary: 'Exchange a one-time sign-in ticket for a session token',
      description:
        '`gatehouse serve` prints a sign-in URL whose fragment carries the ticket; the console posts it here.',
      body: { kind: 'json', schema: SignInRequestSchema },
      responses: [{ status: 200, description: 'A bearer token for the console.', schema: SessionSchema }],
      problems: [401],
      async handler({ body, audit }) {
        const redeemed = await deps.tickets.redeem(body.ticket);
        if (!redeemed) {
          throw new HttpProblem(
            ErrorCode.GH_ERR_SIGN_IN_LINK_INVALID,
            'The sign-in link is unknown, already used or expired. Print a new one with `npx gatehouse link` where the server runs, or sign in with a token from `npx gatehouse token`.',
          );
        }
        audit.userName = redeemed.userName;
        return { body: await newSession(`user:${redeemed.userName}`, redeemed.userName, redeemed.roles) };
      },
    }),
  ];
}
