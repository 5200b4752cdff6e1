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
  const empty =
    !draft.from &&
    !draft.to &&
    !draft.action &&
    !draft.user &&
    !draft.instance &&
    !draft.resource &&
    !draft.search;
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
      <TextField
        label="Resource"
        size="small"
        value={draft.resource}
        onChange={(event) => onChange({ resource: event.target.value })}
        error={problems.resource !== undefined}
        helperText={problems.resource ?? (draft.resource ? 'Type:id, exactly' : undefined)}
        placeholder="Api:5d0c6f8e"
        sx={{ width: 220 }}
      />
      <TextField
        label="Search parameters"
        type="search"
        size="small"
        value={draft.search}
        onChange={(event) => onChange({ search: event.target.value })}
        error={problems.search !== undefined}
        helperText={problems.search ?? (draft.search ? 'Every word, as the start of a word' : undefined)}
        sx={{ width: 240 }}
      />
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
