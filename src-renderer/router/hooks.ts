import { useCallback, useSyncExternalStore } from 'react';
import {
  currentLocation,
  navigate,
  subscribeToLocation,
  type NavigateOptions,
  type RouterLocation,
} from './history.js';

export function useLocation(): RouterLocation {
  return useSyncExternalStore(subscribeToLocation, currentLocation);
}

/** Only the path: a component that does not read the query is not re-rendered when just the query changes. */
export function usePathname(): string {
  return useSyncExternalStore(subscribeToLocation, currentPathname);
}

function currentPathname(): string {
  return window.location.pathname;
}

export function useNavigate(): (to: string, options?: NavigateOptions) => void {
  return navigate;
}

/** The query string as URLSearchParams, and a setter that keeps the path. */
export function useSearchParams(): [
  URLSearchParams,
  (next: URLSearchParams, options?: NavigateOptions) => void,
] {
  const { pathname, search } = useLocation();
  const params = new URLSearchParams(search);
  const setParams = useCallback(
    (next: URLSearchParams, options?: NavigateOptions) => {
      const query = next.toString();
      navigate(`${pathname}${query ? `?${query}` : ''}`, options);
    },
    [pathname],
  );
  return [params, setParams];
}
