import { useEffect, useRef } from 'react';

export const AUTO_REFRESH_MS = 5_000;

/** Calls `refresh` every few seconds while `active` and the window is visible. */
export function useAutoRefresh(active: boolean, refresh: () => void, intervalMs = AUTO_REFRESH_MS): void {
  const refreshRef = useRef(refresh);
  useEffect(() => {
    refreshRef.current = refresh;
  });
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') refreshRef.current();
    }, intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs]);
}
