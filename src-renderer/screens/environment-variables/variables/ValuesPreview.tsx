import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { EnvironmentVariable, EnvironmentVariableScalar } from '../../../api/types.js';
import { MONOSPACE_FONT } from '../../../theme/theme.js';
import { SINGLE_VALUE_KEY, slotsOf } from '../variable-labels.js';

function storedValue(
  variable: EnvironmentVariable,
  environmentId: string,
  member: string,
): EnvironmentVariableScalar | undefined {
  const values = variable.values[environmentId];
  if (!values) return undefined;
  if (member === SINGLE_VALUE_KEY) return values.value;
  return values.members?.[member];
}

/**
 * The variable's values in one environment as the API returned them: secrets arrive as `********` and are
 * shown as such; the console never has anything else to show.
 */
export function ValuesPreview({
  variable,
  environmentId,
}: {
  variable: EnvironmentVariable;
  environmentId: string | undefined;
}) {
  if (!environmentId) return null;
  const slots = slotsOf(variable);
  return (
    <Box
      component="dl"
      sx={{
        display: 'grid',
        gridTemplateColumns: variable.kind === 'group' ? 'max-content minmax(0, 1fr)' : 'minmax(0, 1fr)',
        columnGap: 1.5,
        rowGap: 0.25,
        m: 0,
        fontFamily: MONOSPACE_FONT,
        fontSize: '0.8125rem',
        maxWidth: 360,
      }}
    >
      {slots.map((slot) => {
        const value = storedValue(variable, environmentId, slot.name);
        return (
          <Box key={slot.name} sx={{ display: 'contents' }}>
            {variable.kind === 'group' ? (
              <Box component="dt" sx={{ color: 'text.secondary' }}>
                {slot.name}
              </Box>
            ) : (
              <dt className="visually-hidden">Value</dt>
            )}
            <Box component="dd" sx={{ m: 0, wordBreak: 'break-all' }} data-member={slot.name}>
              {value === undefined ? (
                <Typography
                  component="span"
                  variant="body2"
                  sx={{ color: 'text.secondary', fontStyle: 'italic' }}
                >
                  not set
                </Typography>
              ) : (
                String(value)
              )}
            </Box>
          </Box>
        );
      })}
    </Box>
  );
}
