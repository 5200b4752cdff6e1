import * as z from 'zod';
import { MONITORING_OUTCOMES } from './monitoring-schemas.js';

export const TRY_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export type TryMethod = (typeof TRY_METHODS)[number];
export const METHODS_WITHOUT_BODY: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

export const MAX_TRY_BODY_CHARS = 1024 * 1024;
export const DEFAULT_TRY_TIMEOUT_MS = 30_000;
export const MAX_TRY_TIMEOUT_MS = 120_000;

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const METHOD = new RegExp(`^(${TRY_METHODS.join('|')})$`, 'i');
// Printable characters; spaces and non-ASCII are percent-encoded before sending.
const PATH = /^\/[\x20-\x7e\u00a0-\uffff]*$/;

/** Set by Gatehouse or the HTTP framing: a caller cannot send its own. */
const MANAGED_HEADERS: Readonly<Record<string, string>> = {
  host: 'The request always goes to the agent group\u2019s own gateway listener; Host is set for it.',
  'content-length': 'Content-Length is computed from the body.',
  'transfer-encoding': 'The body is sent with a Content-Length.',
  connection: 'Connection is managed by Gatehouse.',
  'keep-alive': 'Keep-Alive is managed by Gatehouse.',
  'proxy-connection': 'Proxy-Connection is managed by Gatehouse.',
  upgrade: 'Protocol upgrades cannot be tried.',
  te: 'TE is managed by Gatehouse.',
  trailer: 'Trailers cannot be sent.',
  expect: 'Expect is managed by Gatehouse.',
  traceparent: 'Gatehouse sets traceparent to find this request in API Monitoring.',
};

const HeaderSchema = z
  .object({
    name: z
      .string()
      .min(1)
      .max(256)
      .regex(HEADER_NAME, 'Not a valid header name.')
      .refine((name) => MANAGED_HEADERS[name.toLowerCase()] === undefined, {
        error: (issue) => MANAGED_HEADERS[String(issue.input).toLowerCase()] ?? 'This header is managed.',
      }),
    value: z
      .string()
      .max(8192)
      .regex(HEADER_VALUE, 'A header value is Latin-1 text without CR, LF or controls.'),
  })
  .strict();

export const TryRequestSchema = z
  .object({
    agentGroupId: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .meta({
        description:
          "Whose gateway listener receives the request; default: the API's first cross-platform agent group " +
          'whose listener runs.',
      }),
    method: z
      .string()
      .regex(METHOD, `The method must be one of ${TRY_METHODS.join(', ')}.`)
      .meta({ description: `${TRY_METHODS.join(', ')} (case-insensitive).` }),
    path: z
      .string()
      .min(1)
      .max(8192)
      .regex(PATH, 'Give a path that starts with / and has no control characters.')
      .meta({
        description:
          'Path and query under the API base path (`/orders/42?x=1`) or the full path from the listener root ' +
          '(`/orders-api/v1/orders/42`). Never a URL: the request always goes to the local listener.',
      }),
    headers: z.array(HeaderSchema).max(50).optional().meta({
      description:
        'Request headers in order (repeat a name to send it twice). Host, framing and traceparent are set by Gatehouse.',
    }),
    body: z
      .string()
      .max(MAX_TRY_BODY_CHARS)
      .optional()
      .meta({ description: 'Request body as text (UTF-8), for POST, PUT, PATCH and DELETE.' }),
    timeoutMs: z
      .int()
      .min(1_000)
      .max(MAX_TRY_TIMEOUT_MS)
      .optional()
      .meta({ description: `How long to wait for the whole answer; default ${DEFAULT_TRY_TIMEOUT_MS} ms.` }),
  })
  .strict()
  .superRefine((value, context) => {
    if (
      value.body !== undefined &&
      value.body !== '' &&
      METHODS_WITHOUT_BODY.has(value.method.toUpperCase())
    ) {
      context.addIssue({
        code: 'custom',
        path: ['body'],
        message: `A ${value.method.toUpperCase()} request is sent without a body.`,
      });
    }
  })
  .meta({ id: 'PassthroughTryRequest' });
export type TryRequest = z.infer<typeof TryRequestSchema>;
/** `PassthroughTryRequest` as a request sends it. */
export type TryItRequest = z.input<typeof TryRequestSchema>;

const HeaderPairSchema = z.object({ name: z.string(), value: z.string() });
export type HeaderPair = z.output<typeof HeaderPairSchema>;

export const TryResultSchema = z
  .object({
    agentGroup: z.object({ id: z.string(), name: z.string() }),
    request: z.object({
      method: z.string(),
      url: z.string().meta({ description: 'The URL sent to, credential-like query values as ********.' }),
      traceparent: z.string().meta({ description: 'Finds the request in API Monitoring and at the target.' }),
    }),
    targetUrl: z
      .string()
      .nullable()
      .meta({
        description:
          'The URL the gateway forwarded to, from its monitoring record (secrets as ********); null when the ' +
          'request was not forwarded.',
      }),
    outcome: z.enum(MONITORING_OUTCOMES).nullable().meta({
      description: "The monitoring record's outcome; null when the record did not arrive in time.",
    }),
    reason: z.string().optional().meta({ description: 'Why the gateway refused or failed, when it did.' }),
    operation: z
      .string()
      .optional()
      .meta({ description: 'The operation that matched (`*`: All operations).' }),
    status: z.int(),
    statusText: z.string(),
    headers: z.array(HeaderPairSchema).meta({ description: 'Response headers in the order received.' }),
    body: z.string().meta({ description: 'Text, or base64 when `bodyEncoding` is `base64`.' }),
    bodyEncoding: z.enum(['text', 'base64']),
    bodyBytes: z.int().meta({ description: 'Bytes of the response body received.' }),
    bodyTruncated: z.boolean().meta({ description: 'Only the first 256 KiB are returned.' }),
    durationMs: z.number().meta({ description: 'From sending the request to the end of the answer.' }),
  })
  .meta({ id: 'PassthroughTryResult' });
export type TryResult = z.infer<typeof TryResultSchema>;
export type TryItResult = TryResult;
