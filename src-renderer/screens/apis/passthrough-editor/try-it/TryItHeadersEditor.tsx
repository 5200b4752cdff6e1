import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlinedIcon from '@mui/icons-material/DeleteOutlined';
import { looksSecret, newHeaderRow, type HeaderRow } from './try-it-draft.js';

export interface TryItHeadersEditorProps {
  headers: HeaderRow[];
  onChange: (headers: HeaderRow[]) => void;
  /** Server validation messages by row index (`headers[0].name` → row 0). */
  errors: Record<string, string[]>;
  disabled?: boolean;
}

/** Request headers, one row each; a name repeated sends the header twice. */
export function TryItHeadersEditor({ headers, onChange, errors, disabled }: TryItHeadersEditorProps) {
  const update = (key: number, change: Partial<HeaderRow>) =>
    onChange(headers.map((row) => (row.key === key ? { ...row, ...change } : row)));
  const messageOf = (index: number, field: 'name' | 'value') =>
    errors[`headers[${index}].${field}`]?.join(' ');
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
      <Typography component="legend" variant="subtitle2" sx={{ mb: 1 }}>
        Headers
      </Typography>
      {headers.length === 0 ? (
        <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
          No request headers. Host and traceparent are set for you.
        </Typography>
      ) : null}
      {headers.map((row, index) => (
        <Box key={row.key} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', mb: 1 }}>
          <TextField
            size="small"
            label={`Header ${index + 1} name`}
            value={row.name}
            onChange={(event) => update(row.key, { name: event.target.value })}
            error={messageOf(index, 'name') !== undefined}
            helperText={messageOf(index, 'name')}
            disabled={disabled}
            sx={{ flex: '0 0 34%' }}
            slotProps={{ htmlInput: { maxLength: 256, spellCheck: false, autoComplete: 'off' } }}
          />
          <TextField
            size="small"
            label={`Header ${index + 1} value`}
            type={looksSecret(row.name) ? 'password' : 'text'}
            value={row.value}
            onChange={(event) => update(row.key, { value: event.target.value })}
            error={messageOf(index, 'value') !== undefined}
            helperText={messageOf(index, 'value')}
            disabled={disabled}
            sx={{ flex: 1 }}
            slotProps={{ htmlInput: { maxLength: 8192, spellCheck: false, autoComplete: 'off' } }}
          />
          <IconButton
            aria-label={`Remove header ${index + 1}`}
            onClick={() => onChange(headers.filter((candidate) => candidate.key !== row.key))}
            disabled={disabled}
            sx={{ mt: 0.25 }}
          >
            <DeleteOutlinedIcon />
          </IconButton>
        </Box>
      ))}
      <Button
        size="small"
        startIcon={<AddIcon />}
        onClick={() => onChange([...headers, newHeaderRow()])}
        disabled={disabled || headers.length >= 50}
      >
        Add header
      </Button>
    </Box>
  );
}
