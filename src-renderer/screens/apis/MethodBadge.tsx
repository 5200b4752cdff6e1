import Box from '@mui/material/Box';
import type { Theme } from '@mui/material/styles';
import { MONOSPACE_FONT } from '../../theme/theme.js';

type Tone = 'primary' | 'success' | 'warning' | 'secondary' | 'error' | 'grey';

const TONE_BY_METHOD: Record<string, Tone> = {
  GET: 'primary',
  POST: 'success',
  PUT: 'warning',
  PATCH: 'secondary',
  DELETE: 'error',
};

// The darker shade on light backgrounds and the lighter one on dark backgrounds keep the text above 4.5:1.
function toneColors(theme: Theme, tone: Tone) {
  if (tone === 'grey') return { color: theme.palette.text.secondary };
  const palette = theme.palette[tone];
  return { color: palette.dark, ...theme.applyStyles('dark', { color: palette.light }) };
}

/** An HTTP method as a fixed-width, colour-coded label (the text itself carries the meaning). */
export function MethodBadge({ method }: { method: string }) {
  const upper = method.toUpperCase();
  const tone = TONE_BY_METHOD[upper] ?? 'grey';
  return (
    <Box
      component="span"
      sx={(theme) => ({
        ...toneColors(theme, tone),
        display: 'inline-block',
        minWidth: '4.75em',
        px: 0.75,
        py: 0.125,
        border: '1px solid currentColor',
        borderRadius: 1,
        fontFamily: MONOSPACE_FONT,
        fontSize: '0.75rem',
        fontWeight: 700,
        lineHeight: 1.5,
        textAlign: 'center',
      })}
    >
      {upper}
    </Box>
  );
}
