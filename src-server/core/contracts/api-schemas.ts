import * as z from 'zod';
import { DescriptionPatchSchema, NameSchema } from './common-schemas.js';

export const API_DOCUMENT_MEDIA_TYPES = [
  'application/json',
  'application/yaml',
  'application/x-yaml',
  'text/yaml',
  'text/plain',
  'application/vnd.oai.openapi',
  'application/vnd.oai.openapi+json',
];

/** 25 MiB, the parser's own default limit (a literal, so the console's copy is checked against it). */
export const API_DOCUMENT_LIMIT = 26_214_400;

export const OPENAPI_VERSIONS = ['3.2', '3.1', '3.0', '2.0'] as const;
export type OpenApiVersion = (typeof OPENAPI_VERSIONS)[number];

/** The request body of the routes that take an OpenAPI document as sent. */
export const API_DOCUMENT_BODY = {
  kind: 'raw' as const,
  contentTypes: API_DOCUMENT_MEDIA_TYPES,
  limit: API_DOCUMENT_LIMIT,
  description: 'The OpenAPI document.',
};

const ConditionSchema = z.object({ name: z.string(), value: z.string().optional() });
export type MatchCondition = z.output<typeof ConditionSchema>;

/** Where a document came from: sent as the request body, read from a file (the CLI), or loaded from a URL. */
export const ApiSourceSchema = z.object({
  kind: z.enum(['upload', 'file', 'url']),
  name: z.string().optional(),
  url: z.string().optional(),
});
export type ApiSource = z.output<typeof ApiSourceSchema>;

const OperationSchema = z.object({
  key: z.string().meta({ description: '`METHOD /path`: the identity of the operation across re-imports.' }),
  method: z.string(),
  path: z.string().meta({
    description:
      'The path key as written; a `?…` or `#…` part names the query values or headers of requestMatch.',
  }),
  requestMatch: z
    .object({ query: z.array(ConditionSchema).optional(), headers: z.array(ConditionSchema).optional() })
    .optional()
    .meta({ description: 'What a request must carry besides path and method to reach this operation.' }),
  operationId: z.string().optional(),
  summary: z.string().optional(),
  pathParameters: z.array(z.string()),
});
export type ApiOperation = z.output<typeof OperationSchema>;

const apiFields = {
  id: z.string(),
  name: z.string(),
  version: z.string(),
  specVersion: z.enum(OPENAPI_VERSIONS),
  description: z.string().optional(),
  basePath: z.string().meta({ description: 'From the first server URL (or Swagger 2.0 basePath).' }),
  serverUrl: z.string().optional(),
  agentGroupIds: z.array(z.string()),
  operationCount: z.int(),
  revision: z.int(),
  source: ApiSourceSchema.optional().meta({
    description: "Where the current revision's document came from.",
  }),
  warningCount: z.int().meta({ description: 'Warnings about the current revision’s document.' }),
  skippedCount: z.int().meta({ description: 'Operations of the document that are not exposed.' }),
  passthroughId: z
    .string()
    .nullable()
    .meta({ description: 'The Passthrough configuration, when there is one.' }),
  documentMediaType: z.string(),
  importedAt: z.string(),
  updatedAt: z.string(),
};

export const ApiSummarySchema = z.object(apiFields).meta({ id: 'ApiSummary' });
export type ApiSummary = z.output<typeof ApiSummarySchema>;
/** What a 409 on import or re-import names in its `conflictingApi` member: the API whose base path overlaps. */
export type ConflictingApi = Pick<ApiSummary, 'id' | 'name' | 'basePath'>;
export const ApiSchema = z
  .object({ ...apiFields, operations: z.array(OperationSchema) })
  .meta({ id: 'Api', description: 'An API definition imported from an OpenAPI document.' });
export type ApiDefinition = z.output<typeof ApiSchema>;

export const IssueSchema = z
  .object({
    pointer: z.string().meta({ description: 'JSON pointer into the document (`""` is the whole document).' }),
    message: z.string(),
  })
  .meta({ id: 'DefinitionIssue' });
export type DefinitionIssue = z.output<typeof IssueSchema>;
export const SkippedOperationSchema = z
  .object({ method: z.string(), path: z.string(), pointer: z.string(), reason: z.string() })
  .meta({
    id: 'SkippedOperation',
    description: 'An operation of the document that is not exposed, and why.',
  });
export type SkippedOperation = z.output<typeof SkippedOperationSchema>;

export const ImportResultSchema = z
  .object({ api: ApiSchema, warnings: z.array(IssueSchema), skipped: z.array(SkippedOperationSchema) })
  .meta({ id: 'ApiImportResult' });
export type ApiImportResult = z.output<typeof ImportResultSchema>;

export const ReimportResultSchema = z
  .object({
    api: ApiSchema,
    kept: z.array(z.string()).meta({ description: 'Operation keys in both versions (new spelling).' }),
    added: z.array(z.string()),
    removed: z.array(z.string()),
    droppedPassthroughEntries: z.array(z.object({ operation: z.string(), reason: z.string() })).meta({
      description:
        'Passthrough entries not kept: their operation is gone or their templates no longer fit it.',
    }),
    warnings: z.array(IssueSchema),
    skipped: z.array(SkippedOperationSchema),
  })
  .meta({ id: 'ApiReimportResult' });
export type ApiReimportResult = z.output<typeof ReimportResultSchema>;

export const ModifyApiSchema = z
  .object({
    name: NameSchema.optional(),
    description: DescriptionPatchSchema,
    agentGroupIds: z
      .array(z.string().min(1).max(100))
      .max(50)
      .refine((ids) => new Set(ids).size === ids.length, 'An agent group is listed twice.')
      .optional(),
  })
  .strict()
  .meta({ id: 'ModifyApi' });
export type ModifyApiInput = z.infer<typeof ModifyApiSchema>;
export type ModifyApi = z.input<typeof ModifyApiSchema>;
