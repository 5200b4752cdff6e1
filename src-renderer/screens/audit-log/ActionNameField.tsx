import { useMemo } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { Activity } from '../../api/types.js';

export interface ActionNameFieldProps {
  value: string;
  onChange: (value: string) => void;
  /** Audited activities of Gatehouse's catalog; imported platform actions may be typed freely. */
  activities: Activity[];
  loading: boolean;
  problem?: string;
}

export function ActionNameField({ value, onChange, activities, loading, problem }: ActionNameFieldProps) {
  const descriptions = useMemo(
    () => new Map(activities.map((activity) => [activity.name, activity.description])),
    [activities],
  );
  const options = useMemo(() => activities.map((activity) => activity.name), [activities]);
  return (
    <Autocomplete
      freeSolo
      options={options}
      value={value || null}
      onChange={(_event, selected) => onChange(selected ?? '')}
      inputValue={value}
      onInputChange={(_event, text) => onChange(text)}
      loading={loading}
      sx={{ width: 250 }}
      renderOption={({ key, ...props }, option) => (
        <Box component="li" key={key} {...props} sx={{ display: 'block !important' }}>
          <Typography component="div">{option}</Typography>
          <Typography component="div" variant="caption" sx={{ color: 'text.secondary' }}>
            {descriptions.get(option)}
          </Typography>
        </Box>
      )}
      renderInput={(params) => (
        <TextField
          {...params}
          label="Action"
          size="small"
          placeholder="Controller.Action"
          error={problem !== undefined}
          helperText={problem}
        />
      )}
    />
  );
}
