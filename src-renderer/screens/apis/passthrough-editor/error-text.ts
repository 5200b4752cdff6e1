import type { Theme } from '@mui/material/styles';

/**
 * Error-coloured text (destructive buttons, error messages on tinted backgrounds): MUI's error red is at the 4.5:1
 * edge on the light background; its dark shade (light shade in the dark scheme) is clear of it.
 */
export function errorText(theme: Theme) {
  return {
    color: theme.palette.error.dark,
    ...theme.applyStyles('dark', { color: theme.palette.error.light }),
  };
}
