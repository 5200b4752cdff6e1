import * as z from 'zod';

export const CurrentIdentitySchema = z
  .object({
    userName: z.string(),
    kind: z.enum(['user', 'client']),
    roles: z.array(z.string()),
    activities: z.array(z.string()).meta({ description: 'Activities the caller may perform.' }),
  })
  .meta({ id: 'CurrentIdentity' });
export type CurrentIdentity = z.output<typeof CurrentIdentitySchema>;

export const SessionSchema = z
  .object({
    accessToken: z.string(),
    tokenType: z.literal('Bearer'),
    expiresIn: z.int().meta({ description: 'Seconds.' }),
    userName: z.string(),
    roles: z.array(z.string()),
  })
  .meta({ id: 'Session' });
export type SessionToken = z.output<typeof SessionSchema>;

export const SignInRequestSchema = z
  .object({ ticket: z.string().min(10).max(200) })
  .strict()
  .meta({ id: 'SignInRequest' });
export type SignInRequest = z.input<typeof SignInRequestSchema>;

export const ExternalSignInOptionsSchema = z
  .object({
    issuer: z.string(),
    authorizationEndpoint: z.string(),
    tokenEndpoint: z.string(),
    clientId: z.string(),
    scope: z.string(),
  })
  .meta({
    id: 'ExternalSignInOptions',
    description: 'The external identity provider the console signs in with (authorization code with PKCE).',
  });
export type ExternalSignInOptions = z.output<typeof ExternalSignInOptionsSchema>;

export const SignInOptionsSchema = z
  .object({
    signInLink: z.literal(true).meta({
      description:
        'One-time sign-in links printed by `gatehouse serve` work here (POST /api/v1/session/sign-in).',
    }),
    external: ExternalSignInOptionsSchema.nullable().meta({
      description: 'The external identity provider the console can sign in with; null when there is none.',
    }),
    externalUnavailable: z
      .string()
      .optional()
      .meta({ description: 'Why the configured external provider cannot be offered right now.' }),
  })
  .meta({ id: 'SignInOptions' });
export type SignInOptions = z.output<typeof SignInOptionsSchema>;

export const SignInLinkSchema = z
  .object({
    signInUrl: z.string().meta({
      description: 'The console URL with a one-time ticket in its fragment (`…/#signin=<ticket>`).',
    }),
    expiresAt: z.string().meta({ description: 'The link works once, until then (ten minutes).' }),
  })
  .meta({ id: 'SignInLink' });
export type SignInLink = z.output<typeof SignInLinkSchema>;
