import * as z from 'zod';
import { BUILT_IN_ROLES } from './access-schemas.js';

export const AppRegistrationSchema = z
  .object({
    id: z.string(),
    clientId: z.string(),
    name: z.string(),
    roles: z.array(z.string()),
    createdAt: z.string(),
    secretUpdatedAt: z.string(),
  })
  .meta({
    id: 'AppRegistration',
    description: 'A client-credentials application of the built-in identity provider.',
  });
export type AppRegistration = z.output<typeof AppRegistrationSchema>;

export const AppRegistrationWithSecretSchema = z
  .object({
    registration: AppRegistrationSchema,
    clientSecret: z.string().meta({ description: 'Shown once; only its hash is kept.' }),
  })
  .meta({ id: 'AppRegistrationWithSecret' });
export type AppRegistrationWithSecret = z.output<typeof AppRegistrationWithSecretSchema>;

export const CreateAppRegistrationSchema = z
  .object({
    name: z.string().trim().min(1).max(100),
    roles: z.array(z.enum(BUILT_IN_ROLES)).min(1).max(BUILT_IN_ROLES.length),
  })
  .strict()
  .meta({ id: 'CreateAppRegistration' });
export type CreateAppRegistration = z.input<typeof CreateAppRegistrationSchema>;

export const ClientCredentialsRequestSchema = z
  .object({
    grant_type: z.string().optional(),
    client_id: z.string().optional(),
    client_secret: z.string().optional(),
    scope: z.string().optional(),
  })
  .meta({ id: 'ClientCredentialsRequest' });

export const TokenResponseSchema = z
  .object({ access_token: z.string(), token_type: z.literal('Bearer'), expires_in: z.int() })
  .meta({ id: 'TokenResponse' });

export const OAuthErrorSchema = z
  .object({ error: z.string(), error_description: z.string().optional() })
  .meta({ id: 'OAuthError', description: 'RFC 6749 error response.' });

export const OpenIdConfigurationSchema = z
  .object({
    issuer: z.string(),
    jwks_uri: z.string(),
    token_endpoint: z.string(),
    grant_types_supported: z.array(z.string()),
    token_endpoint_auth_methods_supported: z.array(z.string()),
    response_types_supported: z.array(z.string()),
    subject_types_supported: z.array(z.string()),
    id_token_signing_alg_values_supported: z.array(z.string()),
    claims_supported: z.array(z.string()),
    audience: z.string(),
  })
  .meta({
    id: 'OpenIdConfiguration',
    description: 'OpenID Provider metadata (OpenID Connect Discovery 1.0).',
  });

export const JsonWebKeySetSchema = z
  .object({ keys: z.array(z.record(z.string(), z.unknown())) })
  .meta({ id: 'JsonWebKeySet', description: 'RFC 7517 JSON Web Key Set.' });
