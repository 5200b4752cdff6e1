import * as z from 'zod';
import { DEFAULT_CAPTURE_BODY_BYTES, MAX_CAPTURE_BODY_BYTES } from './constants.js';

const enabled = z.boolean().meta({
  description:
    'Keep request and response headers and bodies with each monitoring record of this API (secrets masked).',
});
const maxBodyBytes = z
  .int()
  .min(0)
  .max(MAX_CAPTURE_BODY_BYTES)
  .meta({
    description: `Body bytes kept per direction; the rest is counted, not kept. Default ${DEFAULT_CAPTURE_BODY_BYTES}, at most ${MAX_CAPTURE_BODY_BYTES}.`,
  });

/** Per API: whether monitoring keeps the headers and bodies of its requests and responses. Off by default. */
export const MonitoringCaptureSettingsSchema = z
  .object({ enabled, maxBodyBytes })
  .meta({ id: 'MonitoringCaptureSettings' });
export type MonitoringCaptureSettings = z.output<typeof MonitoringCaptureSettingsSchema>;

export const MonitoringCaptureSettingsInputSchema = z
  .object({ enabled, maxBodyBytes: maxBodyBytes.default(DEFAULT_CAPTURE_BODY_BYTES) })
  .strict()
  .meta({ id: 'MonitoringCaptureSettingsInput' });

const HeaderSchema = z.object({ name: z.string(), value: z.string() });

export const CapturedBodySchema = z
  .object({
    bytes: z.int().meta({ description: 'Size of the whole body as it went over the wire.' }),
    contentType: z.string().optional(),
    text: z.string().optional().meta({
      description: 'The kept bytes as text (UTF-8), secrets masked; absent for a binary or encoded body.',
    }),
    binary: z.boolean().meta({
      description: 'Not text (or content-encoded): summarized by its size and type, not kept.',
    }),
    truncated: z.boolean().meta({ description: 'Only the first `maxBodyBytes` bytes were kept.' }),
  })
  .meta({ id: 'CapturedBody' });
export type CapturedBody = z.output<typeof CapturedBodySchema>;

export const CapturedExchangeSchema = z
  .object({
    request: z.object({
      method: z.string(),
      target: z.string().meta({ description: 'Path and query as received, credential query values masked.' }),
      httpVersion: z.string(),
      headers: z.array(HeaderSchema).meta({ description: 'As received, credential values masked.' }),
      body: CapturedBodySchema.nullable(),
    }),
    response: z
      .object({
        status: z.int(),
        headers: z
          .array(HeaderSchema)
          .meta({ description: 'As sent to the caller, credential values masked.' }),
        body: CapturedBodySchema.nullable(),
      })
      .nullable()
      .meta({ description: 'Null when no response was sent.' }),
    maxBodyBytes: z.int(),
  })
  .meta({
    id: 'CapturedExchange',
    description:
      'What went over the wire between the caller and the gateway, when the API captures exchanges: the request as received and the response as sent.',
  });
export type CapturedExchange = z.output<typeof CapturedExchangeSchema>;
