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

export const SignInLinkSchema = z
  .object({
    signInUrl: z.string().meta({
      description: 'The console URL with a one-time ticket in its fragment (`…/#signin=<ticket>`).',
    }),
    expiresAt: z.string().meta({ description: 'The link works once, until then (ten minutes).' }),
  })
  .meta({ id: 'SignInLink' });
export type SignInLink = z.output<typeof SignInLinkSchema>;
