import * as z from 'zod';
import { intParam } from './query-params.js';

/** Query parameters of every management list endpoint. */
export const LIST_PAGING_QUERY = {
  PageNumber: intParam({ description: 'Page number, 1-based.', min: 1, max: 2_147_483_647, defaultValue: 1 }),
  PageSize: intParam({ description: 'Items per page.', min: 1, max: 500, defaultValue: 50 }),
};

export interface Paging {
  currentPage: number;
  pageSize: number;
  totalCount: number;
  firstPage: number;
  lastPage: number;
  nextPage: number | null;
  previousPage: number | null;
}

export interface ListPage<T> {
  data: T[];
  paging: Paging;
}

export function pagingOf(currentPage: number, pageSize: number, totalCount: number): Paging {
  const lastPage = Math.max(1, Math.ceil(totalCount / pageSize));
  return {
    currentPage,
    pageSize,
    totalCount,
    firstPage: 1,
    lastPage,
    nextPage: currentPage < lastPage ? currentPage + 1 : null,
    previousPage: currentPage > 1 ? Math.min(currentPage - 1, lastPage) : null,
  };
}

export function paginate<T>(items: readonly T[], pageNumber = 1, pageSize = 50): ListPage<T> {
  const start = (pageNumber - 1) * pageSize;
  return { data: items.slice(start, start + pageSize), paging: pagingOf(pageNumber, pageSize, items.length) };
}

const PagingSchema = z
  .object({
    currentPage: z.int(),
    pageSize: z.int(),
    totalCount: z.int(),
    firstPage: z.int(),
    lastPage: z.int(),
    nextPage: z.int().nullable(),
    previousPage: z.int().nullable(),
  })
  .meta({ id: 'Paging' });

export function listPageSchema<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), paging: PagingSchema });
}
