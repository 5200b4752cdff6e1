import { memo, useCallback } from 'react';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import FilterAltOffIcon from '@mui/icons-material/FilterAltOff';
import type { Activity } from '../../api/types.js';
import { InstanceField } from '../../components/InstanceField.js';
import { UtcRangeFields } from '../../components/UtcRangeFields.js';
import { ActionNameField } from './ActionNameField.js';
import { QuickRangeField } from './quick-range/QuickRangeField.js';
import { EMPTY_DRAFT, type DraftProblems, type FilterDraft } from './filter-draft.js';

export interface AuditFilterFieldsProps {
  draft: FilterDraft;
  problems: DraftProblems;
  activities: Activity[];
  activitiesLoading: boolean;
  onChange: (change: Partial<FilterDraft>) => void;
}

/**
 * The fields of the filter form. Memoized: the date pickers are the heaviest part of the screen, and an applied
 * filter or a new page must not render them again.
 */
export const AuditFilterFields = memo(function AuditFilterFields({
  draft,
  problems,
  activities,
  activitiesLoading,
  onChange,
}: AuditFilterFieldsProps) {
  const setAction = useCallback((action: string) => onChange({ action }), [onChange]);
  const setInstance = useCallback((instance: string) => onChange({ instance }), [onChange]);
  const empty = !draft.from && !draft.to && !draft.action && !draft.user && !draft.instance;
  return (
    <>
      <QuickRangeField from={draft.from} to={draft.to} onChange={onChange} />
      <UtcRangeFields from={draft.from} to={draft.to} problems={problems} onChange={onChange} />
      <ActionNameField
        value={draft.action}
        onChange={setAction}
        activities={activities}
        loading={activitiesLoading}
        problem={problems.action}
      />
      <TextField
        label="User"
        size="small"
        value={draft.user}
        onChange={(event) => onChange({ user: event.target.value })}
        helperText={draft.user ? 'Exact user name, any case' : undefined}
        sx={{ width: 170 }}
      />
      <InstanceField value={draft.instance} onChange={setInstance} />
      <Button
        startIcon={<FilterAltOffIcon />}
        disabled={empty}
        onClick={() => onChange(EMPTY_DRAFT)}
        sx={{ mt: 0.25 }}
      >
        Clear filters
      </Button>
    </>
  );
});
