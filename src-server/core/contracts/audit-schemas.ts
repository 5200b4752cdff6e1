import * as z from 'zod';

/** The retention classes of the audit trail: general entries age out, configuration entries live with their resource, agent events roll. */
export const AUDIT_CATEGORIES = ['general', 'configuration', 'agent'] as const;
export type AuditCategory = (typeof AUDIT_CATEGORIES)[number];
export const AuditCategorySchema = z.enum(AUDIT_CATEGORIES);

export const AuditResourceSchema = z
  .object({
    type: z
      .string()
      .meta({ description: 'Resource kind, e.g. Api, Passthrough, AgentGroup, EnvironmentVariable.' }),
    id: z.string(),
    name: z.string().optional(),
  })
  .meta({ id: 'AuditResource' });
export type AuditResource = z.output<typeof AuditResourceSchema>;

const AuditAgentGroupSchema = z.object({ id: z.string(), name: z.string() });
export type AuditAgentGroup = z.output<typeof AuditAgentGroupSchema>;

export const AuditEntrySchema = z
  .object({
    id: z.int().meta({ description: 'Monotonic sequence number, unique within the tenant.' }),
    actionName: z
      .string()
      .meta({ description: 'Action in the form `{Controller}.{Action}`.', example: 'Passthroughs.Modify' }),
    userName: z
      .string()
      .meta({ description: 'Who performed the action (user, application registration, or `system`).' }),
    timestamp: z
      .string()
      .meta({ description: 'When the action occurred, ISO 8601 UTC.', format: 'date-time' }),
    parameters: z.record(z.string(), z.unknown()).meta({
      description: 'HTTP request parameters as JSON; keys depend on the action. Secrets are masked.',
    }),
    resources: z.array(AuditResourceSchema).meta({ description: 'Resources the action affected.' }),
    agentGroup: AuditAgentGroupSchema.optional().meta({ description: 'Agent Group details, when relevant.' }),
    category: AuditCategorySchema.meta({ description: 'Retention class.' }),
    statusCode: z.int().optional().meta({ description: 'HTTP status the action ended with.' }),
    description: z
      .string()
      .optional()
      .meta({ description: 'Human-readable summary, when an imported record had one.' }),
    instance: z.string().optional().meta({
      description:
        'The Gatehouse instance that recorded the entry (`Instance:Id`), where several share one database.',
    }),
    sourceId: z.int().optional().meta({
      description:
        "The id the entry had at its source, for an imported entry whose record carried one (the id to quote back to the source). `id` is always Gatehouse's own, so the two never collide.",
    }),
    tenant: z.string().optional().meta({
      description:
        "The tenant whose trail holds the entry, for an imported or synced tenant's entry; absent on Gatehouse's own trail (tenant `gatehouse`).",
    }),
  })
  .meta({ id: 'AuditEntry' });
/** One record of the audit trail, as stored and as returned by `GET /api/v1/audit-log`. */
export type AuditEntry = z.output<typeof AuditEntrySchema>;

export const AuditLogPageSchema = z
  .object({
    items: z.array(AuditEntrySchema),
    pageNumber: z.int(),
    pageSize: z.int(),
    totalCount: z.int(),
    continuationToken: z.string().optional().meta({
      description:
        'Present when entries follow this page: pass it as `continuationToken` (with the same filters, without `PageNumber`) for the next page. Unlike `PageNumber`, it neither repeats nor skips entries while new ones arrive. Opaque; valid for 24 hours.',
    }),
  })
  .meta({ id: 'AuditLogPage' });
export type AuditLogPage = z.output<typeof AuditLogPageSchema>;

export const AuditFacetsSchema = z
  .object({ actionNames: z.array(z.string()), userNames: z.array(z.string()) })
  .meta({ id: 'AuditLogFacets' });
export type AuditLogFacets = z.output<typeof AuditFacetsSchema>;

export const AuditTenantSchema = z
  .object({
    name: z.string().meta({ description: "The tenant's name; `gatehouse` is Gatehouse's own trail." }),
    entries: z.int().meta({ description: 'Entries its trail holds.' }),
    newest: z
      .string()
      .optional()
      .meta({ description: 'Timestamp of its newest entry.', format: 'date-time' }),
  })
  .meta({ id: 'AuditTenant' });
export type AuditTenant = z.output<typeof AuditTenantSchema>;

export const AuditTenantListSchema = z
  .object({ items: z.array(AuditTenantSchema) })
  .meta({ id: 'AuditTenantList' });
export type AuditTenantList = z.output<typeof AuditTenantListSchema>;

export const AUDIT_EXPORT_FORMATS = ['ndjson', 'csv'] as const;
export type AuditExportFormat = (typeof AUDIT_EXPORT_FORMATS)[number];
