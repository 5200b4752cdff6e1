import { memo, useCallback } from 'react';
import type { Dayjs } from 'dayjs';
import type { UtcRangeDraft, UtcRangeProblems } from '../format/utc-range.js';
import { UtcDateTimeField } from './UtcDateTimeField.js';

export interface UtcRangeFieldsProps extends UtcRangeDraft {
  problems: UtcRangeProblems;
  /** Should be stable: the date pickers are heavy, and these fields render again only when it or a value changes. */
  onChange: (change: Partial<UtcRangeDraft>) => void;
}

/** "From (UTC)" and "To (UTC)" of a filter form. */
export const UtcRangeFields = memo(function UtcRangeFields({
  from,
  to,
  problems,
  onChange,
}: UtcRangeFieldsProps) {
  const setFrom = useCallback((value: Dayjs | null) => onChange({ from: value }), [onChange]);
  const setTo = useCallback((value: Dayjs | null) => onChange({ to: value }), [onChange]);
  return (
    <>
      <UtcDateTimeField label="From (UTC)" value={from} onChange={setFrom} problem={problems.from} />
      <UtcDateTimeField label="To (UTC)" value={to} onChange={setTo} problem={problems.to} />
    </>
  );
});
