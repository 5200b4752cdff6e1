import * as z from 'zod';
import { AuditResourceSchema } from './audit-schemas.js';

export const ParameterChangeSchema = z
  .object({
    path: z.string().meta({ description: 'JSON pointer of the parameter, e.g. `/targetUrl/section1`.' }),
    kind: z.enum(['added', 'removed', 'changed']),
    before: z.unknown().optional().meta({ description: 'The value in the previous entry.' }),
    after: z.unknown().optional().meta({ description: 'The value in this entry.' }),
  })
  .meta({ id: 'AuditParameterChange' });
export type ParameterChange = z.output<typeof ParameterChangeSchema>;

export const AuditEntryChangesSchema = z
  .object({
    id: z.int().meta({ description: 'The entry.' }),
    resource: AuditResourceSchema.optional().meta({
      description: "The resource compared: the entry's first. Absent when the entry names none.",
    }),
    previous: z
      .object({ id: z.int(), actionName: z.string(), userName: z.string(), timestamp: z.string() })
      .optional()
      .meta({
        description:
          'The entry before it (in list order, same tenant) that names the same resource; absent for the first.',
      }),
    changes: z.array(ParameterChangeSchema).meta({
      description:
        "How the parameters differ from the previous entry's; against none, every parameter is `added`. Secrets are masked on both sides, so a changed secret shows as unchanged.",
    }),
  })
  .meta({ id: 'AuditEntryChanges' });
export type AuditEntryChanges = z.output<typeof AuditEntryChangesSchema>;
