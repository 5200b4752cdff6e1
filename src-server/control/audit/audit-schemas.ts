import * as z from 'zod';

export const AuditResourceSchema = z
  .object({
    type: z
      .string()
      .meta({ description: 'Resource kind, e.g. Api, Passthrough, AgentGroup, EnvironmentVariable.' }),
    id: z.string(),
    name: z.string().optional(),
  })
  .meta({ id: 'AuditResource' });

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
    agentGroup: z
      .object({ id: z.string(), name: z.string() })
      .optional()
      .meta({ description: 'Agent Group details, when relevant.' }),
    category: z.enum(['general', 'configuration', 'agent']).meta({ description: 'Retention class.' }),
    statusCode: z.int().optional().meta({ description: 'HTTP status the action ended with.' }),
    description: z
      .string()
      .optional()
      .meta({ description: 'Human-readable summary, when an imported record had one.' }),
  })
  .meta({ id: 'AuditEntry' });

export const AuditLogPageSchema = z
  .object({
    items: z.array(AuditEntrySchema),
    pageNumber: z.int(),
    pageSize: z.int(),
    totalCount: z.int(),
  })
  .meta({ id: 'AuditLogPage' });

export const AuditFacetsSchema = z
  .object({ actionNames: z.array(z.string()), userNames: z.array(z.string()) })
  .meta({ id: 'AuditLogFacets' });
