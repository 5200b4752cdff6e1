import * as z from 'zod';
import { AuditCategorySchema } from './audit-schemas.js';
import { BUILT_IN_ROLES } from './constants.js';

export { BUILT_IN_ROLES };
export type RoleName = (typeof BUILT_IN_ROLES)[number];

export const ActivitySchema = z
  .object({
    name: z.string().meta({ description: '`{Controller}.{Action}`; also the audit `actionName`.' }),
    description: z.string(),
    category: AuditCategorySchema,
    readOnly: z.boolean(),
    roles: z.array(z.enum(BUILT_IN_ROLES)).meta({ description: 'Built-in roles that grant it.' }),
  })
  .meta({ id: 'Activity' });
export type Activity = z.output<typeof ActivitySchema>;

export const RoleSchema = z
  .object({
    name: z.enum(BUILT_IN_ROLES),
    description: z.string(),
    allow: z.array(z.string()).meta({ description: 'Activity patterns, `*` for either part.' }),
    deny: z.array(z.string()),
    activities: z.array(z.string()).meta({ description: 'The activities the role grants.' }),
  })
  .meta({ id: 'Role' });
export type Role = z.output<typeof RoleSchema>;
