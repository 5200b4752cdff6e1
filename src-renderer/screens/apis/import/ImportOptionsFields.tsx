import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { AgentGroup } from '../../../api/types.js';

export interface ImportOptions {
  agentGroupId: string;
  name: string;
}

export interface ImportOptionsFieldsProps {
  agentGroups: AgentGroup[];
  value: ImportOptions;
  onChange: (value: ImportOptions) => void;
  disabled: boolean;
}

/** The agent group that exposes the new API (the import takes one; more are added on the API's page). */
export function ImportOptionsFields({ agentGroups, value, onChange, disabled }: ImportOptionsFieldsProps) {
  return (
    <Stack direction="row" spacing={2}>
      <TextField
        select
        label="Agent group"
        value={value.agentGroupId}
        onChange={(event) => onChange({ ...value, agentGroupId: event.target.value })}
        disabled={disabled}
        helperText="Exposes the API; add more agent groups on the API's page."
        sx={{ flex: 1 }}
      >
        {agentGroups.map((group) => (
          <MenuItem key={group.id} value={group.id}>
            {group.name}
            {group.platform === 'legacy' ? ' (legacy: no passthrough)' : ''}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        label="Name (optional)"
        value={value.name}
        onChange={(event) => onChange({ ...value, name: event.target.value })}
        disabled={disabled}
        helperText="Default: the title in the document"
        slotProps={{ htmlInput: { maxLength: 200 } }}
        sx={{ flex: 1 }}
      />
    </Stack>
  );
}
