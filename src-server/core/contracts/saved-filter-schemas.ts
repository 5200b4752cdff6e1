import * as z from 'zod';

/**
 * A filter as the audit list's query parameters (`tenant`, `startDateTimeUtc`, `actionName`…), by name. Any
 * parameter name is kept: the list validates the values when the filter is applied.
 */
export const SavedFilterParametersSchema = z
  .record(z.string().regex(/^[A-Za-z][A-Za-z0-9]{0,39}$/), z.string().max(1000))
  .refine((filter) => Object.keys(filter).length <= 20, 'At most 20 parameters.')
  .meta({
    description: 'The audit list query parameters of the filter, e.g. `{"actionName": "Api.Create"}`.',
  });

export const SavedFilterInputSchema = z
  .object({
    name: z.string().trim().min(1).max(100).meta({ description: 'Unique per user, case-insensitively.' }),
    filter: SavedFilterParametersSchema,
  })
  .meta({ id: 'SavedAuditFilterInput' });
export type SavedFilterInput = z.input<typeof SavedFilterInputSchema>;

export const SavedFilterSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    filter: z.record(z.string(), z.string()),
    createdAt: z.string().meta({ format: 'date-time' }),
  })
  .meta({ id: 'SavedAuditFilter' });
export type SavedFilter = z.output<typeof SavedFilterSchema>;

export const SavedFilterListSchema = z
  .object({ items: z.array(SavedFilterSchema) })
  .meta({ id: 'SavedAuditFilterList' });
export type SavedFilterList = z.output<typeof SavedFilterListSchema>;
