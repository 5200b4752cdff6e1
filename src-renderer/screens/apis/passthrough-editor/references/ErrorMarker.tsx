import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { MONOSPACE_FONT } from '../../../../theme/theme.js';
import { errorText } from '../error-text.js';

/** A problem of a template, at a 0-based position of its text when the server named one. */
export interface TemplateProblem {
  message: string;
  position?: number;
  length?: number;
}

const CONTEXT_CHARS = 28;

export interface ErrorMarkerProps {
  text: string;
  problem: TemplateProblem & { position: number };
  /** Puts the caret on the faulty characters in the field. */
  onLocate: () => void;
}

/**
 * The faulty characters of a template, underlined, with a caret under them and the message: like a compiler
 * shows it, so long texts stay readable (only the surroundings of the position are shown).
 */
export function ErrorMarker({ text, problem, onLocate }: ErrorMarkerProps) {
  const position = Math.min(Math.max(problem.position, 0), text.length);
  const length = Math.max(1, Math.min(problem.length ?? 1, text.length - position || 1));
  const from = Math.max(0, position - CONTEXT_CHARS);
  const to = Math.min(text.length, position + length + CONTEXT_CHARS);
  const before = `${from > 0 ? '…' : ''}${text.slice(from, position)}`;
  // At the end of the text, a space stands for the missing character.
  const marked = text.slice(position, position + length) || ' ';
  const after = `${text.slice(position + length, to)}${to < text.length ? '…' : ''}`;
  return (
    <Box
      component="span"
      data-testid="template-error"
      data-position={problem.position}
      sx={{ display: 'block', mt: 0.5 }}
    >
      <Box
        component="span"
        aria-hidden
        sx={{
          display: 'block',
          fontFamily: MONOSPACE_FONT,
          fontSize: '0.8rem',
          lineHeight: 1.35,
          whiteSpace: 'pre',
          overflow: 'hidden',
          color: 'text.primary',
        }}
      >
        <span>
          {before}
          <Box
            component="mark"
            sx={(theme) => ({
              ...errorText(theme),
              bgcolor: 'transparent',
              fontWeight: 700,
              textDecoration: 'underline wavy',
              textDecorationColor: 'currentColor',
              textUnderlineOffset: '3px',
            })}
          >
            {marked}
          </Box>
          {after}
        </span>
        {'\n'}
        <span style={{ visibility: 'hidden' }}>{before}</span>
        <Box component="span" sx={(theme) => ({ ...errorText(theme), fontWeight: 700 })}>
          {`^${'~'.repeat(Math.max(0, marked.length - 1))}`}
        </Box>
      </Box>
      <span data-testid="template-error-message">
        Character {problem.position + 1}: {problem.message}{' '}
      </span>
      <Link component="button" type="button" variant="caption" onClick={onLocate} sx={{ verticalAlign: 0 }}>
        Go to character {problem.position + 1}
      </Link>
    </Box>
  );
}
