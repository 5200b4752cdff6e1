import * as z from 'zod';
import { NameSchema } from '../common/common-schemas.js';
import { IssueSchema, SkippedOperationSchema } from './api-schemas.js';

/** Schemas of the import jobs, URL imports, change summaries and revisions. */

export const UrlImportSchema = z
  .object({
    url: z.string().min(1).max(2048).meta({ description: 'An http or https URL of the description.' }),
    allowPrivateAddress: z.boolean().optional().meta({
      description:
        'Confirms that the server may load the description from a loopback or private address (refused without it, 422 with reason private-address).',
    }),
  })
  .strict()
  .meta({ id: 'UrlImport' });

export const UrlImportAndApplySchema = UrlImportSchema.extend({
  agentGroupId: z.string().min(1).max(100).optional(),
  name: NameSchema.optional(),
})
  .strict()
  .meta({ id: 'UrlImportAndApply' });

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
    expectedRevision: z.int().min(1).optional().meta({
      description: 'The revision the changes were looked at against; 409 when the API has moved on since.',
    }),
  })
  .strict()
  .meta({ id: 'ApplyImport' });

export const ChangeSummarySchema = z
  .object({
    fromRevision: z.int(),
    basePath: z.object({ before: z.string(), after: z.string() }),
    added: z.array(z.string()),
    removed: z.array(z.string()),
    changed: z.array(z.object({ before: z.string(), after: z.string(), changes: z.array(z.string()) })),
    keptCount: z.int(),
    droppedPassthroughEntries: z.array(z.object({ operation: z.string(), reason: z.string() })),
    passthrough: z.enum(['restored', 'removed', 'none']).optional(),
  })
  .meta({ id: 'ApiChangeSummary', description: 'What a re-import or restore would change.' });

const SourceSchema = z.object({
  kind: z.enum(['upload', 'file', 'url']),
  name: z.string().optional(),
  url: z.string().optional(),
});

export const ImportJobSchema = z
  .object({
    id: z.string(),
    state: z.enum(['running', 'ready', 'failed', 'cancelled']),
    progress: z
      .object({
        phase: z.enum(['downloading', 'parsing', 'resolving', 'validating']),
        done: z.number().optional(),
        total: z.number().optional(),
      })
      .nullable(),
    source: SourceSchema,
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
        detail: z.string().optional(),
        errors: z.record(z.string(), z.array(z.string())).optional(),
      })
      .catchall(z.unknown())
      .optional()
      .meta({ description: 'When failed: the problem the import ran into.' }),
  })
  .meta({ id: 'ApiImportJob' });

export const RevisionSchema = z
  .object({
    revision: z.int(),
    current: z.boolean(),
    importedAt: z.string(),
    source: SourceSchema,
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

export const RevisionDetailsSchema = RevisionSchema.extend({
  warnings: z.array(IssueSchema),
  skipped: z.array(SkippedOperationSchema),
  bundledFiles: z.array(z.string()),
}).meta({ id: 'ApiRevisionDetails' });

export const RevisionParams = z.object({ id: z.string().min(1), revision: z.coerce.number().int().min(1) });
export const JobParams = z.object({ jobId: z.string().min(1).max(100) });
