import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { instancesApi } from '../api/endpoints.js';
import { useApiQuery } from '../hooks/use-api-query.js';

export interface InstanceFieldProps {
  value: string;
  onChange: (instance: string) => void;
}

/**
 * "Instance": which Gatehouse instance recorded an entry or served a request, where several share one database.
 * Shown only when there is more than one to choose from (or one is chosen already, e.g. from a shared URL).
 */
export function InstanceField({ value, onChange }: InstanceFieldProps) {
  const instances = useApiQuery('instances', (client, signal) => instancesApi.list(client, { signal }));
  const names = (instances.data?.instances ?? []).map((instance) => instance.name);
  if (value && !names.includes(value)) names.push(value);
  if (names.length < 2 && !value) return null;
  return (
    <TextField
      select
      size="small"
      label="Instance"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      sx={{ width: 170 }}
    >
      <MenuItem value="">Any instance</MenuItem>
      {names.map((name) => (
        <MenuItem key={name} value={name}>
          {name}
        </MenuItem>
      ))}
    </TextField>
  );
}
