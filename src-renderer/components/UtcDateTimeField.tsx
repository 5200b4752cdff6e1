import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import type { Dayjs } from 'dayjs';

export interface UtcDateTimeFieldProps {
  label: string;
  value: Dayjs | null;
  onChange: (value: Dayjs | null) => void;
  problem?: string;
  helperText?: string;
  width?: number;
  disablePast?: boolean;
}

/** A date-time typed and shown in UTC (like the API), to the second, clearable. */
export function UtcDateTimeField({
  label,
  value,
  onChange,
  problem,
  helperText,
  width = 250,
  disablePast,
}: UtcDateTimeFieldProps) {
  return (
    <DateTimePicker
      label={label}
      value={value}
      onChange={onChange}
      timezone="UTC"
      ampm={false}
      disablePast={disablePast}
      format="YYYY-MM-DD HH:mm:ss"
      views={['year', 'month', 'day', 'hours', 'minutes', 'seconds']}
      slotProps={{
        textField: {
          size: 'small',
          error: problem !== undefined,
          helperText: problem ?? helperText,
          sx: { width },
        },
        field: { clearable: true },
      }}
    />
  );
}
