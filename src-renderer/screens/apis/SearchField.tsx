import type { KeyboardEventHandler } from 'react';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import type { SxProps, Theme } from '@mui/material/styles';
import SearchIcon from '@mui/icons-material/Search';

export interface SearchFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'search';
  onKeyDown?: KeyboardEventHandler<HTMLDivElement>;
  sx?: SxProps<Theme>;
}

/** A small text field with a search icon in front: the filters of the APIs screens. */
export function SearchField({ label, value, onChange, type, onKeyDown, sx }: SearchFieldProps) {
  return (
    <TextField
      size="small"
      type={type}
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      onKeyDown={onKeyDown}
      slotProps={{
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
      sx={sx}
    />
  );
}
