import * as z from 'zod';
import { PassthroughEntrySchema } from './passthrough-schemas.js';

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

const HeaderValueSchema = z
  .string()
  .max(8192)
  .regex(HEADER_VALUE, 'A header value cannot contain CR, LF or controls.');

const SampleSchema = z
  .object({
    method: z.string().regex(HEADER_NAME, 'An HTTP method is a token such as GET.').max(20).optional(),
    url: z
      .string()
      .max(8192)
      .optional()
      .meta({
        description:
          'Path and query under the base path (`/orders/42?x=1`), the full path, or an absolute URL. Default: the ' +
          "operation's path with `{name}` as `sample-name` (`/sample-path` for All operations).",
      }),
    headers: z
      .record(
        z.string().regex(HEADER_NAME, 'Not a valid header name.').max(256),
        z.union([HeaderValueSchema, z.array(HeaderValueSchema).max(20)]),
      )
      .optional(),
  })
  .strict();

export const PassthroughPreviewRequestSchema = z
  .object({
    configuration: z
      .object({
        allOperations: PassthroughEntrySchema.optional(),
        operations: z.record(z.string().max(2100), PassthroughEntrySchema).default({}),
      })
      .strict()
      .optional()
      .meta({ description: 'An unsaved configuration; without it the saved one is previewed.' }),
    entry: z
      .string()
      .min(1)
      .max(2100)
      .meta({ description: '`allOperations` or an operation key such as `GET /orders/{id}`.' }),
    agentGroupId: z.string().max(100).optional().meta({
      description:
        "Whose environment supplies #env values; default: the API's first cross-platform agent group.",
    }),
    sample: SampleSchema.optional(),
  })
  .strict()
  .meta({ id: 'PassthroughPreviewRequest' });
/** As the handler sees it: defaults filled in. */
export type PassthroughPreviewRequest = z.output<typeof PassthroughPreviewRequestSchema>;
export type PassthroughPreviewRequestInput = z.input<typeof PassthroughPreviewRequestSchema>;
/** The request a preview renders: defaults come from the operation (`/sample-path` for All operations). */
export type PreviewSample = NonNullable<PassthroughPreviewRequestInput['sample']>;

export const PreviewErrorSchema = z.object({
  place: z.string().meta({ description: '`section1`…`section4`, `header:<index>`, `target` or `sample`.' }),
  position: z.int(),
  length: z.int().optional(),
  message: z.string(),
});

export const PassthroughPreviewSchema = z
  .object({
    targetUrl: z
      .string()
      .nullable()
      .meta({ description: 'The target URL, secrets as ********; null on errors.' }),
    headers: z.record(z.string(), z.union([z.string(), z.array(z.string())])).meta({
      description: 'The headers as forwarded (lower-case names), credentials and secrets as ********.',
    }),
    errors: z.array(PreviewErrorSchema),
  })
  .meta({ id: 'PassthroughPreview' });

export type PreviewError = z.output<typeof PreviewErrorSchema>;
export type PassthroughPreview = z.output<typeof PassthroughPreviewSchema>;
