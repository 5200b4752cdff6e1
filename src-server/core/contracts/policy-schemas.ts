import * as z from 'zod';
import { NameSchema } from './common-schemas.js';

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const QUERY_NAME = /^[A-Za-z0-9._~-]+$/;
export const POLICY_METHODS = [
  'ALL',
  'GET',
  'PUT',
  'POST',
  'DELETE',
  'OPTIONS',
  'HEAD',
  'PATCH',
  'TRACE',
] as const;
export type PolicyMethod = (typeof POLICY_METHODS)[number];
export const THROTTLE_PERIODS = ['minute', 'hour', 'day'] as const;
export type ThrottlePeriod = (typeof THROTTLE_PERIODS)[number];
const LOOPBACK_HOSTS = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

export const DEFAULT_API_KEY_HEADER = 'X-API-Key';

const IssuerSchema = z
  .string()
  .max(2000)
  .superRefine((issuer, ctx) => {
    let url: URL;
    try {
      url = new URL(issuer);
    } catch (error) {
      if (!(error instanceof TypeError)) throw error;
      ctx.addIssue({
        code: 'custom',
        message: 'The issuer must be an absolute URL such as https://login.example.com/tenant.',
      });
      return;
    }
    const loopback = LOOPBACK_HOSTS.test(url.hostname);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
      ctx.addIssue({
        code: 'custom',
        message: 'The issuer must use https (http only on a loopback address).',
      });
    }
    if (url.username || url.password || url.search || url.hash) {
      ctx.addIssue({
        code: 'custom',
        message: 'The issuer URL must not carry credentials, a query or a fragment.',
      });
    }
  })
  .meta({
    description: 'Issuer URL: keys come from its discovery document and JWKS. https, or http on loopback.',
  });

const GrantSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('public') }).strict(),
  z
    .object({
      type: z.literal('apiKey'),
      headerName: z
        .string()
        .max(200)
        .regex(TOKEN, "A header name uses letters, digits and !#$%&'*+-.^_`|~ only.")
        .default(DEFAULT_API_KEY_HEADER),
      queryName: z.string().max(200).regex(QUERY_NAME, 'Use letters, digits and ._~- only.').optional(),
    })
    .strict(),
  z
    .object({
      type: z.literal('jwt'),
      issuer: IssuerSchema,
      audience: z.string().trim().min(1, 'An audience is required.').max(500),
      claims: z
        .array(
          z
            .object({
              claim: z.string().trim().min(1).max(200),
              values: z.array(z.string().min(1).max(500)).min(1, 'List at least one accepted value.').max(50),
            })
            .strict(),
        )
        .max(20)
        .default([]),
    })
    .strict(),
]);

const GrantsSchema = z
  .array(GrantSchema)
  .min(1, 'A policy grants access to someone: add a grant.')
  .max(10)
  .superRefine((grants, ctx) => {
    if (grants.length > 1 && grants.some((grant) => grant.type === 'public')) {
      ctx.addIssue({
        code: 'custom',
        message: 'A public grant admits everyone; it cannot be combined with other grants.',
      });
    }
  });

const EndpointSchema = z
  .object({
    method: z
      .preprocess(
        (value) => (typeof value === 'string' ? value.toUpperCase() : value),
        z.enum(POLICY_METHODS),
      )
      .default('ALL'),
    pathPrefix: z
      .string()
      .max(2000)
      .regex(/^\/[^?#\s]*$/, 'A path prefix starts with / and has no query, fragment or spaces.'),
  })
  .strict();

const EndpointsSchema = z.array(EndpointSchema).min(1, 'List at least one endpoint.').max(100);

const ThrottleSchema = z
  .object({ limit: z.int().min(1).max(1_000_000_000), per: z.enum(THROTTLE_PERIODS) })
  .strict()
  .meta({ description: 'At most `limit` requests per minute, hour or day.' });

export const PolicySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    agentGroupId: z.string(),
    endpoints: z.array(z.object({ method: z.enum(POLICY_METHODS), pathPrefix: z.string() })),
    grants: z.array(GrantSchema),
    throttle: ThrottleSchema.optional(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({
    id: 'Policy',
    description: 'Which endpoints of an agent group an API policy opens, to whom, how often.',
  });
export type Policy = z.output<typeof PolicySchema>;
export type PolicyEndpoint = Policy['endpoints'][number];
export type PolicyGrant = z.output<typeof GrantSchema>;
export type PolicyGrantType = PolicyGrant['type'];
export type JwtClaimRule = Extract<PolicyGrant, { type: 'jwt' }>['claims'][number];
export type PolicyThrottle = z.output<typeof ThrottleSchema>;

export const CreatePolicySchema = z
  .object({
    name: NameSchema,
    agentGroupId: z.string().min(1).max(100),
    endpoints: EndpointsSchema,
    grants: GrantsSchema,
    throttle: ThrottleSchema.optional(),
  })
  .strict()
  .meta({ id: 'CreatePolicy' });
export type CreatePolicyInput = z.infer<typeof CreatePolicySchema>;
export type CreatePolicy = z.input<typeof CreatePolicySchema>;

export const ModifyPolicySchema = z
  .object({
    name: NameSchema.optional(),
    agentGroupId: z.string().min(1).max(100).optional(),
    endpoints: EndpointsSchema.optional(),
    grants: GrantsSchema.optional(),
    throttle: ThrottleSchema.nullable().optional().meta({ description: 'null removes the throttle.' }),
  })
  .strict()
  .meta({ id: 'ModifyPolicy' });
export type ModifyPolicyInput = z.infer<typeof ModifyPolicySchema>;
export type ModifyPolicy = z.input<typeof ModifyPolicySchema>;

/** A policy created together with a passthrough: its endpoints default to the API's base path. */
export const InlinePolicySchema = z
  .object({
    name: NameSchema.optional(),
    agentGroupId: z.string().min(1).max(100).optional(),
    endpoints: EndpointsSchema.optional(),
    grants: GrantsSchema,
    throttle: ThrottleSchema.optional(),
  })
  .strict();
export type InlinePolicyInput = z.infer<typeof InlinePolicySchema>;
export type InlinePolicy = z.input<typeof InlinePolicySchema>;
