import * as z from 'zod';
import { NameSchema } from './common-schemas.js';

export const ApiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    environmentId: z.string(),
    prefix: z.string().meta({ description: 'The first characters of the key, to recognise it.' }),
    policyIds: z.array(z.string()).meta({ description: 'Empty: every apiKey policy of its environment.' }),
    createdAt: z.string(),
    expiresAt: z.string().optional(),
    expired: z.boolean(),
  })
  .meta({ id: 'ApiKey', description: 'An API key; the key itself is shown only once, when it is created.' });
export type ApiKey = z.output<typeof ApiKeySchema>;

export const CreatedApiKeySchema = z
  .object({
    apiKey: ApiKeySchema,
    key: z.string().meta({ description: 'Shown once; only a digest is kept.' }),
  })
  .meta({ id: 'CreatedApiKey' });
export type CreatedApiKey = z.output<typeof CreatedApiKeySchema>;

export const CreateApiKeySchema = z
  .object({
    name: NameSchema,
    environmentId: z.string().min(1).max(100),
    policyIds: z
      .array(z.string().min(1).max(100))
      .max(50)
      .refine((ids) => new Set(ids).size === ids.length, 'A policy is listed twice.')
      .default([]),
    expiresAt: z.string().max(40).optional().meta({ description: 'ISO 8601 date-time in the future.' }),
  })
  .strict()
  .meta({ id: 'CreateApiKey' });
export type CreateApiKeyInput = z.infer<typeof CreateApiKeySchema>;
export type CreateApiKey = z.input<typeof CreateApiKeySchema>;
