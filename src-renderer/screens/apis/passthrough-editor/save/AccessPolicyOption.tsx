import { useId } from 'react';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { Policy } from '../../../../api/types.js';
import type { PolicyChoice } from './policy-choice.js';

export interface AccessPolicyOptionProps {
  choice: PolicyChoice;
  onChange: (choice: PolicyChoice) => void;
  /** Policies that already admit requests to the API's base path. */
  covering: readonly Policy[] | undefined;
  /** Sent with the configuration (create), or created right after the save (modify). */
  sameRequest: boolean;
  disabled: boolean;
}

/** The access policy step: runtime access to the exposed endpoint is controlled by API policies. */
export function AccessPolicyOption({
  choice,
  onChange,
  covering,
  sameRequest,
  disabled,
}: AccessPolicyOptionProps) {
  const headingId = useId();
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography variant="h3" id={headingId} sx={{ mb: 0.5 }}>
        Access policy
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {covering && covering.length > 0
          ? `Requests to this API are admitted by ${covering.map((policy) => `“${policy.name}”`).join(', ')}.`
          : 'No API policy admits requests to this API yet: the gateway refuses them until one does.'}
      </Typography>
      <FormControlLabel
        control={
          <Checkbox
            checked={choice.add}
            disabled={disabled}
            onChange={(event) => onChange({ ...choice, add: event.target.checked })}
          />
        }
        label={
          sameRequest
            ? 'Add an access policy (created with the configuration)'
            : 'Add an access policy on save'
        }
      />
      {choice.add ? (
        <Box sx={{ display: 'flex', gap: 3, alignItems: 'flex-start', flexWrap: 'wrap', pl: 4 }}>
          <RadioGroup
            row
            aria-label="Who may call the API"
            value={choice.grant}
            onChange={(event) => onChange({ ...choice, grant: event.target.value as PolicyChoice['grant'] })}
          >
            <FormControlLabel value="apiKey" control={<Radio />} label="API key" disabled={disabled} />
            <FormControlLabel
              value="public"
              control={<Radio />}
              label="Public (everyone)"
              disabled={disabled}
            />
          </RadioGroup>
          {choice.grant === 'apiKey' ? (
            <TextField
              size="small"
              label="API key header"
              value={choice.headerName}
              disabled={disabled}
              onChange={(event) => onChange({ ...choice, headerName: event.target.value })}
              helperText="Create keys under API policies."
              slotProps={{ htmlInput: { maxLength: 200, spellCheck: false } }}
            />
          ) : null}
        </Box>
      ) : null}
    </Box>
  );
}
