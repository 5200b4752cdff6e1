import { memo, useEffect } from 'react';
import Box from '@mui/material/Box';
import { activitiesApi } from '../../api/endpoints.js';
import type { Activity, AuditLogFilter } from '../../api/types.js';
import { useApiQuery } from '../../hooks/use-api-query.js';
import { useFilterDraft } from '../../hooks/use-filter-draft.js';
import { AuditFilterFields } from './AuditFilterFields.js';
import { AUDIT_FILTER_FORM } from './filter-draft.js';

const FORM_SX = { display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start', mb: 2 } as const;
const NO_ACTIVITIES: Activity[] = [];

export interface AuditFiltersProps {
  filter: AuditLogFilter;
  onApply: (filter: AuditLogFilter) => void;
  /** Whether what is typed has a problem (then the list below is not the one asked for). */
  onProblemsChange: (hasProblems: boolean) => void;
}

/** Time range (UTC), action and user: typed here, applied once typing pauses and the draft is valid. */
export const AuditFilters = memo(function AuditFilters({
  filter,
  onApply,
  onProblemsChange,
}: AuditFiltersProps) {
  const { draft, problems, update, submit } = useFilterDraft(AUDIT_FILTER_FORM, filter, onApply);
  const hasProblems = Object.keys(problems).length > 0;
  useEffect(() => onProblemsChange(hasProblems), [hasProblems, onProblemsChange]);
  const activities = useApiQuery('audited-activities', async (client, signal) =>
    (await activitiesApi.list(client, { signal })).filter((activity) => !activity.readOnly),
  );

  return (
    <Box
      component="form"
      role="search"
      aria-label="Filter the audit log"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      sx={FORM_SX}
    >
      <AuditFilterFields
        draft={draft}
        problems={problems}
        activities={activities.data ?? NO_ACTIVITIES}
        activitiesLoading={activities.loading}
        onChange={update}
      />
    </Box>
  );
});
