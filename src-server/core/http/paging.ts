import type { ListPage, Paging } from '../contracts/paging-schemas.js';
import { intParam } from './query-params.js';

export type { ListPage, Paging };

/** Query parameters of every management list endpoint. */
export const LIST_PAGING_QUERY = {
  PageNumber: intParam({ description: 'Page number, 1-based.', min: 1, max: 2_147_483_647, defaultValue: 1 }),
  PageSize: intParam({ description: 'Items per page.', min: 1, max: 500, defaultValue: 50 }),
};

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
