import * as z from 'zod';
import { ErrorCode } from './error-codes.js';

/** Every 4xx and 5xx answer of the management API is `application/problem+json` of this shape. */
export const ProblemDetailsSchema = z
  .looseObject({
    type: z.string().meta({ description: 'A URI reference that identifies the problem type.' }),
    title: z.string(),
    status: z.int(),
    code: z
      .string()
      .regex(/^GH_ERR_[A-Z0-9_]+$/)
      .meta({
        description:
          'What went wrong, as a stable code to match on (the wording of `title` and `detail` may change). docs/ERROR-CODES.md lists every code with its status and meaning.',
        example: ErrorCode.GH_ERR_NOT_FOUND,
      }),
    detail: z.string().optional().meta({ description: 'What went wrong with this request, for people.' }),
    instance: z.string().optional().meta({ description: 'The request path.' }),
    traceId: z.string().optional().meta({ description: 'Finds the request in the server log.' }),
  })
  .meta({
    id: 'ProblemDetails',
    description:
      'RFC 9457 problem details (ASP.NET ProblemDetails shape). Extension members add what the detail names, e.g. `missingValues` of a refused deployment or `conflictingApi` of an overlapping base path.',
  });

export const ValidationProblemDetailsSchema = z
  .looseObject({
    ...ProblemDetailsSchema.shape,
    errors: z
      .record(z.string(), z.array(z.string()))
      .optional()
      .meta({ description: 'Parameter or field name → messages.' }),
  })
  .meta({
    id: 'ValidationProblemDetails',
    description: 'A 400 answer naming each invalid parameter or field.',
  });

/** ProblemDetails / ValidationProblemDetails as the console reads them. */
export type ProblemDetails = z.output<typeof ValidationProblemDetailsSchema>;
