import Link from '@mui/material/Link';
import type { MouseEvent } from 'react';

export const MAIN_CONTENT_ID = 'main-content';

/** The first tab stop: jumps over the top bar and the navigation. */
export function SkipLink() {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    // Focus the main landmark without putting a fragment into the URL the router owns.
    event.preventDefault();
    document.getElementById(MAIN_CONTENT_ID)?.focus();
  };
  return (
    <Link
      component="a"
      href={`#${MAIN_CONTENT_ID}`}
      onClick={skip}
      sx={{
        position: 'absolute',
        left: 8,
        top: 0,
        transform: 'translateY(-120%)',
        zIndex: (theme) => theme.zIndex.tooltip + 1,
        p: 1.5,
        bgcolor: 'background.paper',
        color: 'primary.main',
        borderRadius: 1,
        boxShadow: 3,
        '&:focus': { transform: 'translateY(8px)' },
      }}
    >
      Skip to main content
    </Link>
  );
}
