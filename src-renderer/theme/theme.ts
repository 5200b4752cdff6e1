import { createTheme } from '@mui/material/styles';
import type {} from '@mui/x-data-grid/themeAugmentation';
import { RouterLink } from '../router/RouterLink.js';

export const MONOSPACE_FONT = '"Roboto Mono", ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';

/**
 * Light and dark schemes; the mode follows the OS until the user picks one (MUI keeps the choice in
 * localStorage under `mui-mode`).
 */
export const theme = createTheme({
  colorSchemes: {
    light: {
      palette: {
        primary: { main: '#1f5fa8' },
        secondary: { main: '#6a3fa0' },
        // MUI's default orange fails 4.5:1 under white chip text.
        warning: { main: '#a85300' },
        background: { default: '#f4f6f9', paper: '#ffffff' },
      },
    },
    dark: {
      palette: {
        primary: { main: '#8ab8f0' },
        secondary: { main: '#c7a6f0' },
        background: { default: '#10141a', paper: '#171c24' },
      },
    },
  },
  typography: {
    fontFamily: 'Roboto, "Helvetica Neue", Arial, sans-serif',
    h1: { fontSize: '1.75rem', fontWeight: 500 },
    h2: { fontSize: '1.25rem', fontWeight: 500 },
    h3: { fontSize: '1.05rem', fontWeight: 500 },
  },
  shape: { borderRadius: 6 },
  components: {
    MuiButtonBase: { defaultProps: { LinkComponent: RouterLink } },
    MuiLink: { defaultProps: { component: RouterLink } },
    MuiCssBaseline: {
      styleOverrides: (themeParam) => ({
        // A focus ring that is always visible for keyboard users, on top of MUI's own focus styles (which
        // remove the outline); `html` outranks their class selectors. Fields show focus by their border, and
        // elements focused by script (headings, main) need no ring.
        'html :focus-visible:not(input, textarea, [tabindex="-1"])': {
          outline: `2px solid ${themeParam.palette.primary.main}`,
          outlineOffset: 2,
        },
        code: { fontFamily: MONOSPACE_FONT, fontSize: '0.9em' },
        '.visually-hidden': {
          position: 'absolute',
          width: 1,
          height: 1,
          margin: -1,
          padding: 0,
          overflow: 'hidden',
          clip: 'rect(0 0 0 0)',
          whiteSpace: 'nowrap',
          border: 0,
        },
      }),
    },
    MuiDataGrid: {
      styleOverrides: {
        root: { border: 0 },
      },
    },
  },
});
