import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { SecretValueInput } from './SecretValueInput.js';
import type { SlotDraft } from './values-draft.js';

export interface ValueInputProps {
  id: string;
  label: string;
  draft: SlotDraft;
  onChange: (draft: SlotDraft) => void;
  problem?: string;
}

function BooleanInput({
  id,
  label,
  draft,
  onChange,
}: ValueInputProps & { draft: Extract<SlotDraft, { type: 'boolean' }> }) {
  const state = draft.value === undefined ? 'not set' : String(draft.value);
  return (
    <Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <FormControlLabel
          control={
            <Switch
              id={id}
              checked={draft.value === true}
              onChange={(event) => onChange({ ...draft, value: event.target.checked })}
              slotProps={{ input: { 'aria-describedby': `${id}-state` } }}
            />
          }
          label={label}
        />
        {draft.value === undefined ? null : (
          <Button
            size="small"
            aria-label={`Clear ${label}`}
            onClick={() => onChange({ ...draft, value: undefined })}
          >
            Clear
          </Button>
        )}
      </Box>
      <FormHelperText id={`${id}-state`} sx={{ mt: 0 }}>
        {draft.value === undefined
          ? 'Not set in this environment: switch it to set true or false.'
          : `Value: ${state}`}
      </FormHelperText>
    </Box>
  );
}

/** One typed field: text, number, a switch for booleans, or the masked secret field. */
export function ValueInput(props: ValueInputProps) {
  const { id, label, draft, onChange, problem } = props;
  switch (draft.type) {
    case 'secret':
      return <SecretValueInput id={id} label={label} draft={draft} onChange={onChange} problem={problem} />;
    case 'boolean':
      return <BooleanInput {...props} draft={draft} />;
    case 'number':
    case 'string':
      return (
        <TextField
          id={id}
          label={label}
          size="small"
          fullWidth
          type={draft.type === 'number' ? 'number' : 'text'}
          value={draft.text}
          onChange={(event) => onChange({ ...draft, text: event.target.value })}
          error={problem !== undefined}
          helperText={problem ?? 'Leave empty for no value in this environment.'}
          slotProps={{
            htmlInput: { spellCheck: false, ...(draft.type === 'number' ? { step: 'any' } : {}) },
          }}
        />
      );
  }
}
