import { useEffect, useState } from 'react';
import { setNavigationBlocker } from '../../../../router/history.js';

export interface UnsavedChangesGuard {
  /** A navigation away is held until the user decides. */
  asking: boolean;
  leave: () => void;
  stay: () => void;
}

/**
 * While `dirty`, a navigation to another page (links, Back/Forward) is held for a confirmation, and reloading or
 * closing the window asks through the browser's own `beforeunload` prompt. Moves within `pathname` go ahead.
 */
export function useUnsavedChangesGuard(dirty: boolean, pathname: string): UnsavedChangesGuard {
  const [held, setHeld] = useState<(() => void) | null>(null);

  useEffect(() => {
    if (!dirty) return;
    const removeBlocker = setNavigationBlocker((to, proceed) => {
      if (to.pathname === pathname) return true;
      setHeld(() => proceed);
      return false;
    });
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older engines (and Electron's will-prevent-unload) look at returnValue.
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- deprecated for pages, still what those read
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      removeBlocker();
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, [dirty, pathname]);

  return {
    asking: held !== null,
    leave: () => {
      const proceed = held;
      setHeld(null);
      proceed?.();
    },
    stay: () => setHeld(null),
  };
}
