import { useEffect, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import LockIcon from '@mui/icons-material/Lock';
import VisibilityIcon from '@mui/icons-material/Visibility';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOff';
import { SECRET_MASK } from '../../../api/types.js';
import type { SlotDraft } from './values-draft.js';

type SecretDraft = Extract<SlotDraft, { type: 'secret' }>;

export interface SecretValueInputProps {
  id: string;
  label: string;
  draft: SecretDraft;
  onChange: (draft: SecretDraft) => void;
  problem?: string;
}

function helpOf(draft: SecretDraft): string {
  if (draft.mode === 'keep') return 'Stored encrypted; it is never shown. Replace it to type a new value.';
  if (draft.mode === 'clear') return 'The stored value is removed when you save.';
  return draft.stored
    ? 'Type the new value; it replaces the stored one when you save.'
    : 'Encrypted when saved, and shown as ******** from then on.';
}

/**
 * A secret member: masked and read-only until "Replace value" clears it for a new one. The API never returns
 * secrets; keeping the mask sends `********`, which keeps the stored value.
 */
export function SecretValueInput({ id, label, draft, onChange, problem }: SecretValueInputProps) {
  const [visible, setVisible] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const replaceButtonRef = useRef<HTMLButtonElement>(null);
  const editing = draft.mode === 'replace';
  const previousMode = useRef(draft.mode);
  // Focus follows the mode the user chose: into the field to type, back to the button when they keep it.
  useEffect(() => {
    if (previousMode.current === draft.mode) return;
    previousMode.current = draft.mode;
    if (draft.mode === 'replace') inputRef.current?.focus();
    else replaceButtonRef.current?.focus();
  }, [draft.mode]);

  const shownValue = draft.mode === 'keep' ? SECRET_MASK : draft.mode === 'clear' ? '' : draft.text;
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
      <TextField
        id={id}
        inputRef={inputRef}
        label={label}
        size="small"
        fullWidth
        value={shownValue}
        type={editing && !visible ? 'password' : 'text'}
        onChange={(event) => onChange({ ...draft, text: event.target.value })}
        disabled={draft.mode === 'clear'}
        placeholder={draft.mode === 'clear' ? 'No value' : undefined}
        error={problem !== undefined}
        helperText={problem ?? helpOf(draft)}
        slotProps={{
          htmlInput: {
            readOnly: !editing,
            autoComplete: 'new-password',
            spellCheck: false,
            'data-secret-mode': draft.mode,
          },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <LockIcon fontSize="small" aria-hidden />
              </InputAdornment>
            ),
            endAdornment: editing ? (
              <InputAdornment position="end">
                <IconButton
                  size="small"
                  edge="end"
                  aria-label={
                    visible ? `Hide the typed value of ${label}` : `Show the typed value of ${label}`
                  }
                  onClick={() => setVisible((current) => !current)}
                >
                  {visible ? <VisibilityOffIcon fontSize="small" /> : <VisibilityIcon fontSize="small" />}
                </IconButton>
              </InputAdornment>
            ) : undefined,
          },
        }}
      />
      {draft.mode === 'keep' ? (
        <>
          <Button
            ref={replaceButtonRef}
            variant="outlined"
            size="small"
            sx={{ mt: 0.5, whiteSpace: 'nowrap' }}
            aria-label={`Replace value of ${label}`}
            onClick={() => onChange({ ...draft, mode: 'replace', text: '' })}
          >
            Replace value
          </Button>
          <Button
            size="small"
            sx={{ mt: 0.5, whiteSpace: 'nowrap' }}
            aria-label={`Remove value of ${label}`}
            onClick={() => onChange({ ...draft, mode: 'clear', text: '' })}
          >
            Remove
          </Button>
        </>
      ) : null}
      {draft.stored && draft.mode !== 'keep' ? (
        <Button
          size="small"
          sx={{ mt: 0.5, whiteSpace: 'nowrap' }}
          aria-label={`Keep the stored value of ${label}`}
          onClick={() => {
            setVisible(false);
            onChange({ ...draft, mode: 'keep', text: '' });
          }}
        >
          Keep stored value
        </Button>
      ) : null}
    </Box>
  );
}
