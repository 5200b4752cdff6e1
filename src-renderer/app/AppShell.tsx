import { Suspense, useLayoutEffect } from 'react';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Toolbar from '@mui/material/Toolbar';
import { ScreenErrorBoundary } from '../components/ScreenErrorBoundary.js';
import { navigate } from '../router/history.js';
import { usePathname } from '../router/hooks.js';
import { NavigationDrawer } from './NavigationDrawer.js';
import { HOME_PATH, NotFoundScreen, isHomePath, matchScreen } from './routes.js';
import { MAIN_CONTENT_ID, SkipLink } from './SkipLink.js';
import { TopBar } from './TopBar.js';

/** Skip link, top bar (banner), navigation and the current screen in the main landmark. */
export function AppShell() {
  // Not the whole location: a screen's own query (paging, filters) must not re-render the shell around it.
  const pathname = usePathname();
  const route = matchScreen(pathname);
  const isHome = isHomePath(pathname);

  // Before the first paint, so the home screen (its chunk already preloaded) starts rendering at once.
  useLayoutEffect(() => {
    if (isHome) navigate(HOME_PATH, { replace: true });
  }, [isHome]);

  const Screen = route?.Screen ?? NotFoundScreen;
  return (
    <Box sx={{ display: 'flex', minHeight: '100vh', minWidth: 1000 }}>
      <SkipLink />
      <TopBar />
      <NavigationDrawer active={route} />
      <Box
        component="main"
        id={MAIN_CONTENT_ID}
        tabIndex={-1}
        sx={{ flexGrow: 1, minWidth: 0, px: 4, pb: 4, outline: 'none' }}
      >
        <Toolbar />
        <Box sx={{ pt: 3 }}>
          {isHome ? null : (
            <ScreenErrorBoundary key={route?.path ?? 'not-found'}>
              <Suspense fallback={<LinearProgress aria-label="Loading the screen" />}>
                <Screen />
              </Suspense>
            </ScreenErrorBoundary>
          )}
        </Box>
      </Box>
    </Box>
  );
}
