import * as z from 'zod';
import { MAX_TEMPLATE_LENGTH } from './constants.js';
import { InlinePolicySchema, PolicySchema } from './policy-schemas.js';
import { PASSTHROUGH_DEFAULTS } from '../model/config-model.js';
import { documentedAs } from './documented-schema.js';

/**
 * Bounds of the entry's numbers: generous for slow backends, finite so a typo can't hang a request forever.
 * Literals, so the console's copy is checked against them.
 */
export const ENTRY_BOUNDS = {
  connectMs: { min: 100, max: 120_000 },
  responseMs: { min: 100, max: 900_000 },
  /** 2 GiB. */
  maxRequestBodyBytes: { min: 0, max: 2_147_483_648 },
  maxAgeSeconds: { min: 0, max: 86_400 },
} as const;
/** What a setting left out of an entry becomes. */
export type EntryDefaults = typeof PASSTHROUGH_DEFAULTS;
export const MAX_HEADER_ENTRIES = 50;
export const MAX_ALLOWED_ORIGINS = 100;
export const MAX_EXPOSED_HEADERS = 50;
export const HEADER_ACTIONS = ['Add', 'Overwrite', 'Remove'] as const;
export type HeaderAction = (typeof HEADER_ACTIONS)[number];

const Template = z.string().max(MAX_TEMPLATE_LENGTH);

const TargetSchema = z
  .object({
    section1: Template.meta({ description: 'Server name or base URL of the target system (required).' }),
    section2: Template.default('').meta({ description: 'Base path or directory under that server.' }),
    section3: Template.default('').meta({ description: 'Operation-specific path.' }),
    section4: Template.optional().meta({ description: 'Query parameters (optional).' }),
  })
  .strict();

const HeaderEntrySchema = z
  .object({
    action: z.enum(HEADER_ACTIONS),
    name: z.string().max(256),
    value: Template.optional().meta({
      description: 'For Add and Overwrite; the same language as the URL sections.',
    }),
  })
  .strict();

const CorsSchema = z
  .object({
    enabled: z.boolean().default(PASSTHROUGH_DEFAULTS.cors.enabled),
    allowedOrigins: z
      .array(z.string().max(300))
      .max(MAX_ALLOWED_ORIGINS)
      .default([])
      .meta({ description: '`*`, `scheme://host[:port]`, or `scheme://*.domain` for its subdomains.' }),
    allowCredentials: z.boolean().default(PASSTHROUGH_DEFAULTS.cors.allowCredentials),
    maxAgeSeconds: z
      .int()
      .min(ENTRY_BOUNDS.maxAgeSeconds.min)
      .max(ENTRY_BOUNDS.maxAgeSeconds.max)
      .default(PASSTHROUGH_DEFAULTS.cors.maxAgeSeconds),
    exposeHeaders: z.array(z.string().max(256)).max(MAX_EXPOSED_HEADERS).default([]).meta({
      description:
        'Response headers a browser script may read besides the CORS-safelisted ones (Access-Control-Expose-Headers), e.g. ETag, Location.',
    }),
  })
  .strict();

const TimeoutsSchema = z
  .object({
    connectMs: z
      .int()
      .min(ENTRY_BOUNDS.connectMs.min)
      .max(ENTRY_BOUNDS.connectMs.max)
      .default(PASSTHROUGH_DEFAULTS.timeouts.connectMs),
    responseMs: z
      .int()
      .min(ENTRY_BOUNDS.responseMs.min)
      .max(ENTRY_BOUNDS.responseMs.max)
      .default(PASSTHROUGH_DEFAULTS.timeouts.responseMs),
  })
  .strict();

const TlsSchema = z
  .object({
    verify: z.boolean().default(PASSTHROUGH_DEFAULTS.tls.verify),
    caCertificate: z.string().max(65_536).optional().meta({ description: 'Extra CA certificate(s), PEM.' }),
  })
  .strict();

/** One item of the editor: `All operations` or one operation. Omitted settings take PASSTHROUGH_DEFAULTS. */
export const PassthroughEntrySchema = z
  .object({
    target: TargetSchema,
    cors: CorsSchema.prefault({}),
    headers: z.array(HeaderEntrySchema).max(MAX_HEADER_ENTRIES).default([]),
    timeouts: TimeoutsSchema.prefault({}),
    maxRequestBodyBytes: z
      .int()
      .min(ENTRY_BOUNDS.maxRequestBodyBytes.min)
      .max(ENTRY_BOUNDS.maxRequestBodyBytes.max)
      .default(PASSTHROUGH_DEFAULTS.maxRequestBodyBytes),
    tls: TlsSchema.prefault({}),
    allowWebSocket: z.boolean().default(PASSTHROUGH_DEFAULTS.allowWebSocket).meta({
      description:
        'Relays WebSocket connections (Upgrade: websocket) to the target; policies and CORS are checked on the handshake.',
    }),
  })
  .strict();
/** An entry with every setting: as validation hands it to the handlers and as responses show it. */
export type PassthroughEntry = z.output<typeof PassthroughEntrySchema>;
/** An entry as a request sends it: settings left out take their defaults. */
export type PassthroughEntryInput = z.input<typeof PassthroughEntrySchema>;
export type PassthroughTarget = PassthroughEntry['target'];
export type PassthroughHeaderEntry = PassthroughEntry['headers'][number];
export type PassthroughCors = PassthroughEntry['cors'];

const entries = {
  allOperations: PassthroughEntrySchema.optional().meta({
    description: 'Makes the base path a proxy: the rest of the path and the query can be forwarded.',
  }),
  operations: z.record(z.string().max(2100), PassthroughEntrySchema).default({}).meta({
    description: 'Operation key (`GET /orders/{id}`) → entry; wins over allOperations for that operation.',
  }),
};

/** An unsaved configuration the editor tries (`draft` of a Try it request): the entries, as a replace sends them. */
export const PassthroughDraftSchema = z
  .object({
    ...entries,
    policy: InlinePolicySchema.optional().meta({
      description:
        'The API policy the save would create with these entries (as in a create): it admits this one request ' +
        'too (default agent group: the one tried), so a Passthrough not created yet can be tried. Never stored.',
    }),
  })
  .strict()
  .meta({
    id: 'PassthroughDraft',
    description:
      'Entries to try instead of the saved ones (or before any is saved), exactly as a replace would send them (`********` keeps a stored secret value). Checked like a save; never stored.',
  });

export const CreatePassthroughBodySchema = z
  .object({
    ...entries,
    policy: InlinePolicySchema.optional().meta({
      description:
        "Also creates an API policy (endpoints default to the API's base path on its agent group).",
    }),
  })
  .strict();
export type CreatePassthroughBody = z.infer<typeof CreatePassthroughBodySchema>;
/** `CreatePassthrough` as a request sends it. */
export type CreatePassthrough = z.input<typeof CreatePassthroughBodySchema>;

export const ReplacePassthroughBodySchema = z
  .object({
    ...entries,
    revision: z.int().min(1).optional().meta({
      description: 'When given, the change is refused (409) if the configuration has changed since.',
    }),
  })
  .strict();
export type ReplacePassthroughBody = z.infer<typeof ReplacePassthroughBodySchema>;
/** `ReplacePassthrough` as a request sends it. */
export type ReplacePassthrough = z.input<typeof ReplacePassthroughBodySchema>;

export const CreatePassthroughDoc = documentedAs(
  'CreatePassthrough',
  'A Passthrough configuration: All operations and/or entries per operation, optionally with an API policy.',
  CreatePassthroughBodySchema,
);
export const ReplacePassthroughDoc = documentedAs(
  'ReplacePassthrough',
  'The whole Passthrough configuration; replaces the stored one.',
  ReplacePassthroughBodySchema,
);

export const PassthroughSchema = z
  .object({
    id: z.string(),
    apiId: z.string(),
    allOperations: PassthroughEntrySchema.optional(),
    operations: z.record(z.string(), PassthroughEntrySchema),
    revision: z.int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({
    id: 'Passthrough',
    description:
      'Values of credential headers (Authorization, API keys, …) that hold literal text read ********.',
  });

export const CreatedPassthroughSchema = z
  .object({ passthrough: PassthroughSchema, policy: PolicySchema.optional() })
  .meta({ id: 'CreatedPassthrough' });
export type Passthrough = z.output<typeof PassthroughSchema>;
export type CreatedPassthrough = z.output<typeof CreatedPassthroughSchema>;
/** The entries of a configuration, without its identity. */
export type PassthroughConfiguration = Pick<Passthrough, 'allOperations' | 'operations'>;
