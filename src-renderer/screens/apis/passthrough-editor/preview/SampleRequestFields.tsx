import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { MONOSPACE_FONT } from '../../../../theme/theme.js';
import { parseSampleHeaders, type SampleDraft } from './preview-request.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

export interface SampleRequestFieldsProps {
  sample: SampleDraft;
  onChange: (sample: SampleDraft) => void;
  /** The operation's method, or GET for All operations. */
  defaultMethod: string;
  /** What the server uses when the URL is empty (`/orders/sample-orderId`, `/sample-path`). */
  defaultUrl: string;
  disabled?: boolean;
}

/** The request the preview renders the target for: method, URL under the base path, headers. */
export function SampleRequestFields({
  sample,
  onChange,
  defaultMethod,
  defaultUrl,
  disabled,
}: SampleRequestFieldsProps) {
  const { badLines } = parseSampleHeaders(sample.headers);
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: '130px 1fr', gap: 1.5, mt: 1 }}>
      <TextField
        select
        size="small"
        label="Sample method"
        value={sample.method || defaultMethod}
        disabled={disabled}
        onChange={(event) =>
          onChange({ ...sample, method: event.target.value === defaultMethod ? '' : event.target.value })
        }
      >
        {[...new Set([defaultMethod, ...METHODS])].map((method) => (
          <MenuItem key={method} value={method}>
            {method}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        size="small"
        label="Sample URL"
        value={sample.url}
        disabled={disabled}
        placeholder={defaultUrl}
        onChange={(event) => onChange({ ...sample, url: event.target.value })}
        helperText="Path and query under the base path, the full path with the base path, or a full URL. Empty: the placeholder."
        slotProps={{
          htmlInput: { spellCheck: false, maxLength: 8192, style: { fontFamily: MONOSPACE_FONT } },
        }}
      />
      <TextField
        size="small"
        label="Sample headers"
        value={sample.headers}
        disabled={disabled}
        multiline
        minRows={2}
        placeholder={'Accept: application/json\nX-Request-Id: 42'}
        onChange={(event) => onChange({ ...sample, headers: event.target.value })}
        error={badLines.length > 0}
        helperText={
          badLines.length > 0
            ? `Line ${badLines.join(', ')} is not “Name: value”; it is left out.`
            : 'One “Name: value” per line.'
        }
        sx={{ gridColumn: '1 / -1' }}
        slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: MONOSPACE_FONT } } }}
      />
    </Box>
  );
}
