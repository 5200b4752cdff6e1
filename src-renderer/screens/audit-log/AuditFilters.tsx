import { memo, useCallback, useEffect, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import { activitiesApi } from '../../api/endpoints.js';
import type { Activity, AuditLogFilter } from '../../api/types.js';
import { useApiQuery } from '../../hooks/use-api-query.js';
import { AuditFilterFields } from './AuditFilterFields.js';
import { sameFilter } from './audit-view.js';
import {
  draftOf,
  filterOf,
  problemsOf,
  sameProblems,
  type DraftProblems,
  type FilterDraft,
} from './filter-draft.js';

const DEBOUNCE_MS = 400;
const FORM_SX = { display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start', mb: 2 } as const;
const NO_PROBLEMS: DraftProblems = {};
const NO_ACTIVITIES: Activity[] = [];

export interface AuditFiltersProps {
  filter: AuditLogFilter;
  onApply: (filter: AuditLogFilter) => void;
}

function isValid(draft: FilterDraft): boolean {
  return Object.keys(problemsOf(draft)).length === 0;
}

/** Time range (UTC), action and user: typed here, applied once typing pauses and the draft is valid. */
export const AuditFilters = memo(function AuditFilters({ filter, onApply }: AuditFiltersProps) {
  const [draft, setDraft] = useState<FilterDraft>(() => draftOf(filter));
  // Judged once typing pauses, so a half-typed value is not flagged at every keystroke.
  const [problems, setProblems] = useState<DraftProblems>(NO_PROBLEMS);
  const activities = useApiQuery('audited-activities', async (client, signal) =>
    (await activitiesApi.list(client, { signal })).filter((activity) => !activity.readOnly),
  );

  const onApplyRef = useRef(onApply);
  useEffect(() => {
    onApplyRef.current = onApply;
  });
  const lastApplied = useRef(filter);
  const apply = useCallback((next: AuditLogFilter) => {
    lastApplied.current = next;
    onApplyRef.current(next);
  }, []);

  useEffect(() => {
    const timer = setTimeout(() => {
      const judged = problemsOf(draft);
      // Straight from the timer rather than from a render of the paused draft: the request leaves at once.
      if (Object.keys(judged).length === 0) apply(filterOf(draft));
      setProblems((current) => (sameProblems(current, judged) ? current : judged));
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [draft, apply]);

  // Back/forward or a shared link changed the filter under the form (not this form's own apply): show it.
  useEffect(() => {
    if (sameFilter(filter, lastApplied.current)) return;
    lastApplied.current = filter;
    setDraft(draftOf(filter));
  }, [filter]);

  const update = useCallback(
    (change: Partial<FilterDraft>) => setDraft((current) => ({ ...current, ...change })),
    [],
  );

  return (
    <Box
      component="form"
      role="search"
      aria-label="Filter the audit log"
      onSubmit={(event) => {
        event.preventDefault();
        if (isValid(draft)) apply(filterOf(draft));
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
