import { memo, useState } from 'react';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { Dayjs } from 'dayjs';
import type { UtcRangeDraft } from '../../../format/utc-range.js';
import { CUSTOM_RANGE, QUICK_RANGES, quickRangeDraft, quickRangeOf } from './quick-ranges.js';

export interface QuickRangeFieldProps extends UtcRangeDraft {
  onChange: (change: Partial<UtcRangeDraft>) => void;
}

/**
 * "Last 15 minutes" … "Last 30 days", or Custom (the From/To fields as typed). A select, so the keyboard opens it
 * with Enter, Space or the arrows like any other field of the form.
 */
export const QuickRangeField = memo(function QuickRangeField({ from, to, onChange }: QuickRangeFieldProps) {
  // The choice stays shown while the fields hold what it set, however long ago it was made.
  const [chosen, setChosen] = useState<{ id: string; from: Dayjs } | undefined>(undefined);
  const shown = chosen && !to && from?.isSame(chosen.from) ? chosen.id : quickRangeOf({ from, to });
  return (
    <TextField
      select
      label="Quick range"
      size="small"
      value={shown}
      onChange={(event) => {
        const range = QUICK_RANGES.find((candidate) => candidate.id === event.target.value);
        if (!range) {
          setChosen(undefined);
          return;
        }
        const draft = quickRangeDraft(range);
        setChosen({ id: range.id, from: draft.from! });
        onChange(draft);
      }}
      sx={{ width: 170 }}
      slotProps={{ htmlInput: { 'data-testid': 'audit-quick-range' } }}
    >
      {QUICK_RANGES.map((range) => (
        <MenuItem key={range.id} value={range.id}>
          {range.label}
        </MenuItem>
      ))}
      <MenuItem value={CUSTOM_RANGE}>Custom (From / To)</MenuItem>
    </TextField>
  );
});
