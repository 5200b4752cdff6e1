import * as z from 'zod';
import { NameSchema } from './common-schemas.js';
import { ApiSourceSchema, IssueSchema, ReimportResultSchema, SkippedOperationSchema } from './api-schemas.js';
import { ErrorCode } from './error-codes.js';
import { ProblemDetailsSchema } from './problem-schemas.js';

/** Schemas of the import jobs, URL imports, change summaries and revisions. */

export const UrlImportSchema = z
  .object({
    url: z.string().min(1).max(2048).meta({ description: 'An http or https URL of the description.' }),
    allowPrivateAddress: z
      .boolean()
      .optional()
      .meta({
        description: `Confirms that the server may load the description from a loopback or private address (refused without it: 422 ${ErrorCode.GH_ERR_PRIVATE_ADDRESS}).`,
      }),
  })
  .strict()
  .meta({ id: 'UrlImport' });
export type UrlImport = z.input<typeof UrlImportSchema>;

export const UrlImportAndApplySchema = UrlImportSchema.extend({
  agentGroupId: z.string().min(1).max(100).optional(),
  name: NameSchema.optional(),
})
  .strict()
  .meta({ id: 'UrlImportAndApply' });
export type UrlImportAndApply = z.input<typeof UrlImportAndApplySchema>;

export const ApplyImportSchema = z
  .object({
    apiId: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .meta({ description: 'Re-import into this API (default: a new API).' }),
    agentGroupId: z.string().min(1).max(100).optional(),
    name: NameSchema.optional(),
    expectedRevision: z
      .int()
      .min(1)
      .optional()
      .meta({
        description: `The revision the changes were looked at against; 409 ${ErrorCode.GH_ERR_API_CHANGED} when the API has moved on since.`,
      }),
  })
  .strict()
  .meta({ id: 'ApplyImport' });
export type ApplyImport = z.input<typeof ApplyImportSchema>;

export const PASSTHROUGH_RESTORES = ['restored', 'removed', 'none'] as const;
/** What restoring a revision does to the passthrough configuration. */
export type PassthroughRestore = (typeof PASSTHROUGH_RESTORES)[number];

export const ChangeSummarySchema = z
  .object({
    fromRevision: z.int(),
    basePath: z.object({ before: z.string(), after: z.string() }),
    added: z.array(z.string()),
    removed: z.array(z.string()),
    changed: z.array(z.object({ before: z.string(), after: z.string(), changes: z.array(z.string()) })),
    keptCount: z.int(),
    droppedPassthroughEntries: z.array(z.object({ operation: z.string(), reason: z.string() })),
    passthrough: z.enum(PASSTHROUGH_RESTORES).optional().meta({
      description: 'Restores only: what happens to the passthrough configuration.',
    }),
  })
  .meta({ id: 'ApiChangeSummary', description: 'What a re-import or restore would change.' });
export type ApiChangeSummary = z.output<typeof ChangeSummarySchema>;

export const IMPORT_PHASES = ['downloading', 'parsing', 'resolving', 'validating'] as const;
export type ImportPhase = (typeof IMPORT_PHASES)[number];

export const IMPORT_JOB_STATES = ['running', 'ready', 'failed', 'cancelled'] as const;
export type ImportJobState = (typeof IMPORT_JOB_STATES)[number];

export const ImportJobSchema = z
  .object({
    id: z.string(),
    state: z.enum(IMPORT_JOB_STATES),
    progress: z
      .object({
        phase: z.enum(IMPORT_PHASES),
        done: z.number().optional(),
        total: z.number().optional(),
      })
      .nullable(),
    source: ApiSourceSchema,
    startedAt: z.string(),
    result: z
      .object({
        title: z.string(),
        version: z.string(),
        specVersion: z.string(),
        basePath: z.string(),
        serverUrl: z.string().optional(),
        operationCount: z.int(),
        warnings: z.array(IssueSchema),
        skipped: z.array(SkippedOperationSchema),
        bundledFiles: z.array(z.string()),
        documentBytes: z.int(),
      })
      .optional()
      .meta({ description: 'When ready: what was read, not applied yet.' }),
    existingApi: z.object({ id: z.string(), name: z.string(), revision: z.int() }).optional().meta({
      description:
        'The API this import would re-import: the one named by apiId, or the one imported from the same URL.',
    }),
    changes: ChangeSummarySchema.optional(),
    problem: z
      .object({
        status: z.int(),
        code: ProblemDetailsSchema.shape.code,
        detail: z.string().optional(),
        errors: z.record(z.string(), z.array(z.string())).optional(),
      })
      .catchall(z.unknown())
      .optional()
      .meta({
        description: 'When failed: the problem the import ran into, as a synchronous import answers it.',
      }),
  })
  .meta({ id: 'ApiImportJob' });
export type ApiImportJob = z.output<typeof ImportJobSchema>;

export const RevisionSchema = z
  .object({
    revision: z.int(),
    current: z.boolean(),
    importedAt: z.string(),
    source: ApiSourceSchema,
    version: z.string(),
    specVersion: z.string(),
    basePath: z.string(),
    operationCount: z.int(),
    warningCount: z.int(),
    skippedCount: z.int(),
    restoredFrom: z.int().optional(),
    hasPassthrough: z
      .boolean()
      .meta({ description: 'A passthrough configuration is kept with it (restored with it).' }),
    restorable: z.boolean(),
  })
  .meta({ id: 'ApiRevision' });
export type ApiRevision = z.output<typeof RevisionSchema>;

export const RevisionDetailsSchema = RevisionSchema.extend({
  warnings: z.array(IssueSchema),
  skipped: z.array(SkippedOperationSchema),
  bundledFiles: z.array(z.string()),
}).meta({ id: 'ApiRevisionDetails' });
export type ApiRevisionDetails = z.output<typeof RevisionDetailsSchema>;

export const RevisionListSchema = z.object({ data: z.array(RevisionSchema) }).meta({ id: 'ApiRevisionList' });
export type ApiRevisionList = z.output<typeof RevisionListSchema>;

export const RestoreRevisionSchema = z
  .object({
    expectedRevision: z
      .int()
      .min(1)
      .optional()
      .meta({
        description: `The current revision the changes were looked at against; 409 ${ErrorCode.GH_ERR_API_CHANGED} when the API has moved on since.`,
      }),
  })
  .strict()
  .meta({ id: 'RestoreApiRevision' });
export type RestoreRevision = z.input<typeof RestoreRevisionSchema>;

export const RestoreResultSchema = ReimportResultSchema.extend({
  passthrough: z.enum(PASSTHROUGH_RESTORES),
}).meta({ id: 'ApiRestoreResult' });
export type ApiRestoreResult = z.output<typeof RestoreResultSchema>;

export const RevisionParams = z.object({ id: z.string().min(1), revision: z.coerce.number().int().min(1) });
export const JobParams = z.object({ jobId: z.string().min(1).max(100) });
