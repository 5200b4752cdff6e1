import * as z from 'zod';
import { SECRET_MASK } from './constants.js';

/** The rule of tenant names (`core/audit/audit-tenant.ts`), for the names of sources and their tenants. */
const NAME = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^[a-z0-9][a-z0-9._-]{0,63}$/,
    '1-64 lower-case letters, digits, ".", "_" or "-", starting with a letter or digit',
  );

const HttpUrl = z
  .url({ protocol: /^https?$/ })
  .max(2048)
  .meta({ description: 'An http(s) URL; plain http only to a loopback host (secrets travel to it).' });

const ClientCredentialsInput = z.object({
  kind: z.literal('client-credentials'),
  tokenEndpoint: HttpUrl.meta({ description: "The token endpoint of the tenant's identity provider." }),
  clientId: z.string().trim().min(1).max(512),
  clientSecret: z.string().min(1).max(4096).optional().meta({
    description: 'Sealed at rest; never returned. On a change, leave it out to keep the stored one.',
  }),
  scope: z.string().trim().max(1024).optional(),
});

const BearerInput = z.object({
  kind: z.literal('bearer'),
  token: z.string().min(1).max(16_384).optional().meta({
    description:
      'A pasted bearer token; sealed at rest, never returned. On a change, leave it out to keep it.',
  }),
});

export const AuditSourceInputSchema = z
  .object({
    name: NAME.meta({ description: 'The source’s name (`gatehouse audit sync --source NAME`).' }),
    tenant: NAME.optional().meta({
      description: 'The tenant whose trail synced entries go into; the source’s name when absent.',
    }),
    baseUrl: HttpUrl.meta({
      description: "The tenant's management API base URL; its `GET /api/v1/audit-log` is what is synced.",
    }),
    auth: z.discriminatedUnion('kind', [ClientCredentialsInput, BearerInput]),
  })
  .meta({ id: 'AuditSourceInput' });
export type AuditSourceInput = z.output<typeof AuditSourceInputSchema>;

export const AuditSourcePatchSchema = z
  .object({
    tenant: NAME.optional().meta({ description: 'Another tenant starts the next sync from the beginning.' }),
    baseUrl: HttpUrl.optional().meta({
      description: 'Another base URL starts the next sync from the beginning.',
    }),
    auth: z
      .discriminatedUnion('kind', [
        ClientCredentialsInput.partial({ tokenEndpoint: true, clientId: true }),
        BearerInput,
      ])
      .optional()
      .meta({
        description:
          'The fields given replace the stored ones (an empty scope removes it); the secret is kept unless a new one is given. Changing the kind needs every field of the new kind, the secret too.',
      }),
  })
  .strict()
  .meta({ id: 'AuditSourcePatch' });
export type AuditSourcePatch = z.output<typeof AuditSourcePatchSchema>;

export const AuditSyncSummarySchema = z
  .object({
    status: z.enum(['running', 'completed', 'failed']),
    startedAt: z.string(),
    finishedAt: z.string().optional(),
    pages: z.int().meta({ description: 'Pages read in this run.' }),
    read: z.int(),
    added: z.int(),
    duplicates: z
      .int()
      .meta({ description: 'Entries already present (the overlap window, or a resumed walk).' }),
    skipped: z
      .int()
      .meta({ description: 'Items that were not audit entries (missing action, user or time).' }),
    retries: z.int().meta({ description: 'Requests repeated after 429 or 5xx answers or network failures.' }),
    seconds: z.number(),
    resumed: z.boolean().meta({ description: 'Whether the run continued an interrupted walk.' }),
    error: z.string().optional(),
  })
  .meta({ id: 'AuditSyncSummary' });
export type AuditSyncSummary = z.output<typeof AuditSyncSummarySchema>;

const Masked = z.literal(SECRET_MASK);

export const AuditSourceSchema = z
  .object({
    name: z.string(),
    tenant: z.string(),
    baseUrl: z.string(),
    auth: z.discriminatedUnion('kind', [
      z.object({
        kind: z.literal('client-credentials'),
        tokenEndpoint: z.string(),
        clientId: z.string(),
        clientSecret: Masked,
        scope: z.string().optional(),
      }),
      z.object({ kind: z.literal('bearer'), token: Masked }),
    ]),
    createdAt: z.string(),
    updatedAt: z.string(),
    syncedUntil: z.string().optional().meta({
      description: 'Entries before this time were synced; the next sync asks from a little before it.',
    }),
    interrupted: z.boolean().meta({ description: 'A walk was interrupted; the next sync resumes it.' }),
    lastSync: AuditSyncSummarySchema.optional(),
  })
  .meta({ id: 'AuditSource', description: 'A tenant the audit trail is synced from; secrets masked.' });
export type AuditSource = z.output<typeof AuditSourceSchema>;

export const AuditSourceListSchema = z
  .object({ items: z.array(AuditSourceSchema) })
  .meta({ id: 'AuditSourceList' });
export type AuditSourceList = z.output<typeof AuditSourceListSchema>;
