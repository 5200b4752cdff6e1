import * as z from 'zod';
import { MAX_TEMPLATE_LENGTH } from '../../core/template/index.js';
import { InlinePolicySchema, PolicySchema } from '../policies/policy-schemas.js';
import { PASSTHROUGH_DEFAULTS } from '../../core/model/config-model.js';
import { documentedAs } from '../common/documented-schema.js';

/** Bounds of the entry's numbers: generous for slow backends, finite so a typo can't hang a request forever. */
export const TIMEOUT_BOUNDS = {
  connectMs: { min: 100, max: 120_000 },
  responseMs: { min: 100, max: 900_000 },
} as const;
export const MAX_REQUEST_BODY_BYTES = 2 * 1024 * 1024 * 1024;
export const MAX_CORS_MAX_AGE_SECONDS = 86_400;

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
    action: z.enum(['Add', 'Overwrite', 'Remove']),
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
      .max(100)
      .default([])
      .meta({ description: '`*`, `scheme://host[:port]`, or `scheme://*.domain` for its subdomains.' }),
    allowCredentials: z.boolean().default(PASSTHROUGH_DEFAULTS.cors.allowCredentials),
    maxAgeSeconds: z
      .int()
      .min(0)
      .max(MAX_CORS_MAX_AGE_SECONDS)
      .default(PASSTHROUGH_DEFAULTS.cors.maxAgeSeconds),
    exposeHeaders: z.array(z.string().max(256)).max(50).default([]).meta({
      description:
        'Response headers a browser script may read besides the CORS-safelisted ones (Access-Control-Expose-Headers), e.g. ETag, Location.',
    }),
  })
  .strict();

const TimeoutsSchema = z
  .object({
    connectMs: z
      .int()
      .min(TIMEOUT_BOUNDS.connectMs.min)
      .max(TIMEOUT_BOUNDS.connectMs.max)
      .default(PASSTHROUGH_DEFAULTS.timeouts.connectMs),
    responseMs: z
      .int()
      .min(TIMEOUT_BOUNDS.responseMs.min)
      .max(TIMEOUT_BOUNDS.responseMs.max)
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
    headers: z.array(HeaderEntrySchema).max(50).default([]),
    timeouts: TimeoutsSchema.prefault({}),
    maxRequestBodyBytes: z
      .int()
      .min(0)
      .max(MAX_REQUEST_BODY_BYTES)
      .default(PASSTHROUGH_DEFAULTS.maxRequestBodyBytes),
    tls: TlsSchema.prefault({}),
    allowWebSocket: z.boolean().default(PASSTHROUGH_DEFAULTS.allowWebSocket).meta({
      description:
        'Relays WebSocket connections (Upgrade: websocket) to the target; policies and CORS are checked on the handshake.',
    }),
  })
  .strict();
export type PassthroughEntryInput = z.infer<typeof PassthroughEntrySchema>;

const entries = {
  allOperations: PassthroughEntrySchema.optional().meta({
    description: 'Makes the base path a proxy: the rest of the path and the query can be forwarded.',
  }),
  operations: z.record(z.string().max(2100), PassthroughEntrySchema).default({}).meta({
    description: 'Operation key (`GET /orders/{id}`) → entry; wins over allOperations for that operation.',
  }),
};

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

export const ReplacePassthroughBodySchema = z
  .object({
    ...entries,
    revision: z.int().min(1).optional().meta({
      description: 'When given, the change is refused (409) if the configuration has changed since.',
    }),
  })
  .strict();
export type ReplacePassthroughBody = z.infer<typeof ReplacePassthroughBodySchema>;

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
