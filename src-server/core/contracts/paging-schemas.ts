import * as z from 'zod';

export const PagingSchema = z
  .object({
    currentPage: z.int(),
    pageSize: z.int(),
    totalCount: z.int(),
    firstPage: z.int(),
    lastPage: z.int(),
    nextPage: z.int().nullable(),
    previousPage: z.int().nullable(),
  })
  .meta({ id: 'Paging', description: 'Paging of every management list endpoint except the audit log.' });
export type Paging = z.output<typeof PagingSchema>;

/** `{ data, paging }`: the answer of every management list endpoint except the audit log. */
export function listPageSchema<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), paging: PagingSchema });
}
export interface ListPage<T> {
  data: T[];
  paging: Paging;
}
