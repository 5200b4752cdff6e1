import type { ApiClient } from './api-client.js';
import type { ListPage } from './types.js';

/** The management API's largest page. */
const MAX_PAGE_SIZE = 500;

/** Every item of a management list, page after page: the console's lists show them whole, however many. */
export async function listAll<T>(
  client: ApiClient,
  path: string,
  { signal }: { signal?: AbortSignal } = {},
): Promise<T[]> {
  const all: T[] = [];
  for (let page = 1; ; page++) {
    const answer = await client.get<ListPage<T>>(path, {
      query: { PageNumber: page, PageSize: MAX_PAGE_SIZE },
      signal,
    });
    all.push(...answer.data);
    if (answer.paging.nextPage === null || answer.data.length === 0) return all;
  }
}
