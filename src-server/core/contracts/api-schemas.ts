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

export const OPENAPI_VERSIONS = ['3.1', '3.0', '2.0'] as const;
export type OpenApiVersion = (typeof OPENAPI_VERSIONS)[number];

const OperationSchema = z.object({
  key: z.string().meta({ description: '`METHOD /path`: the identity of the operation across re-imports.' }),
  method: z.string(),
  path: z.string(),
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

const IssueSchema = z.object({
  pointer: z.string().meta({ description: 'JSON pointer into the document (`""` is the whole document).' }),
  message: z.string(),
});
export type DefinitionIssue = z.output<typeof IssueSchema>;

export const ImportResultSchema = z
  .object({ api: ApiSchema, warnings: z.array(IssueSchema) })
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
