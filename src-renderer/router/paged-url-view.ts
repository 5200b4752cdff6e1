import { useMemo } from 'react';
import { navigate, type NavigateOptions } from './history.js';
import { useLocation } from './hooks.js';

/** What a list screen shows; it lives in the URL query so a view can be bookmarked and shared. */
export interface PagedView<F> {
  /** 1-based, like the API. */
  page: number;
  pageSize: number;
  filter: F;
}

/** How one screen keeps its filter in the URL, by the API's own parameter names (a console URL reads like an API one). */
export interface FilterCodec<F> {
  read: (params: URLSearchParams) => F;
  /** Sets the filter's parameters, in a fixed order; empty values are left out. */
  write: (filter: F, params: URLSearchParams) => void;
  pageSizes: readonly number[];
  defaultPageSize: number;
}

/** A screen's view in the URL. The changes start from the address bar now, so they need no state of a render. */
export interface PagedUrlView<F> {
  read: (params: URLSearchParams) => PagedView<F>;
  write: (view: PagedView<F>) => URLSearchParams;
  /** The view in the address bar now. */
  current: () => PagedView<F>;
  /** Equal as the URL writes them. */
  sameFilter: (a: F, b: F) => boolean;
  showPage: (page: number) => void;
  showPageSize: (pageSize: number) => void;
  /** A new filter starts again at page 1; the same filter changes nothing. */
  applyFilter: (filter: F) => void;
}

function positiveInt(text: string | null): number | undefined {
  if (!text || !/^\d{1,9}$/.test(text)) return undefined;
  const value = Number(text);
  return value >= 1 ? value : undefined;
}

/** One spelling of an instant (ISO with milliseconds and `Z`); like the API, a date-time without an offset is UTC. */
export function utcInstant(text: string): string | undefined {
  const withZone = /(?:[zZ]|[+-]\d\d:?\d\d)$/.test(text) ? text : `${text}Z`;
  const ms = Date.parse(withZone);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

export function pagedUrlView<F>(codec: FilterCodec<F>): PagedUrlView<F> {
  const read = (params: URLSearchParams): PagedView<F> => {
    const pageSize = positiveInt(params.get('PageSize'));
    return {
      page: positiveInt(params.get('PageNumber')) ?? 1,
      pageSize: pageSize && codec.pageSizes.includes(pageSize) ? pageSize : codec.defaultPageSize,
      filter: codec.read(params),
    };
  };
  const write = (view: PagedView<F>): URLSearchParams => {
    const params = new URLSearchParams();
    codec.write(view.filter, params);
    if (view.page !== 1) params.set('PageNumber', String(view.page));
    if (view.pageSize !== codec.defaultPageSize) params.set('PageSize', String(view.pageSize));
    return params;
  };
  const current = () => read(new URLSearchParams(window.location.search));
  const filterText = (filter: F) => {
    const params = new URLSearchParams();
    codec.write(filter, params);
    return params.toString();
  };
  const sameFilter = (a: F, b: F) => filterText(a) === filterText(b);
  const show = (view: PagedView<F>, options?: NavigateOptions) => {
    const query = write(view).toString();
    navigate(`${window.location.pathname}${query ? `?${query}` : ''}`, options);
  };
  return {
    read,
    write,
    current,
    sameFilter,
    showPage: (page) => show({ ...current(), page }),
    showPageSize: (pageSize) => show({ ...current(), pageSize, page: 1 }),
    applyFilter: (filter) => {
      const now = current();
      if (sameFilter(filter, now.filter)) return;
      // Typing in a filter should not leave one history entry per debounced keystroke.
      show({ ...now, filter, page: 1 }, { replace: true });
    },
  };
}

/** The view in the URL; its filter stays the same object while only the page changes, for memoized children. */
export function usePagedView<F>(urlView: PagedUrlView<F>): PagedView<F> {
  const { search } = useLocation();
  const parsed = useMemo(() => urlView.read(new URLSearchParams(search)), [urlView, search]);
  const filterKey = JSON.stringify(parsed.filter);
  const filter = useMemo(() => JSON.parse(filterKey) as F, [filterKey]);
  return useMemo(
    () => ({ page: parsed.page, pageSize: parsed.pageSize, filter }),
    [parsed.page, parsed.pageSize, filter],
  );
}
