import { useEffect, useMemo, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import FilterAltOffIcon from '@mui/icons-material/FilterAltOff';
import type { Dayjs } from 'dayjs';
import { activitiesApi } from '../../api/endpoints.js';
import type { AuditLogFilter } from '../../api/types.js';
import { useApiQuery } from '../../hooks/use-api-query.js';
import { useDebouncedValue } from '../../hooks/use-debounced-value.js';
import { ActionNameField } from './ActionNameField.js';
import { draftOf, filterOf, problemsOf, type FilterDraft } from './filter-draft.js';
import { sameFilter } from './audit-view.js';

const DEBOUNCE_MS = 400;

export interface AuditFiltersProps {
  filter: AuditLogFilter;
  onApply(filter: AuditLogFilter): void;
}

function UtcDateTimeField(props: {
  label: string;
  value: Dayjs | null;
  onChange(value: Dayjs | null): void;
  problem?: string;
}) {
  return (
    <DateTimePicker
      label={props.label}
      value={props.value}
      onChange={props.onChange}
      timezone="UTC"
      ampm={false}
      format="YYYY-MM-DD HH:mm:ss"
      views={['year', 'month', 'day', 'hours', 'minutes', 'seconds']}
      slotProps={{
        textField: {
          size: 'small',
          error: props.problem !== undefined,
          helperText: props.problem,
          sx: { width: 250 },
        },
        field: { clearable: true },
      }}
    />
  );
}

/** Time range (UTC), action and user; applied after typing pauses, only once valid. */
export function AuditFilters({ filter, onApply }: AuditFiltersProps) {
  const [draft, setDraft] = useState<FilterDraft>(() => draftOf(filter));
  const activities = useApiQuery('audited-activities', async (client, signal) =>
    (await activitiesApi.list(client, { signal })).filter((activity) => !activity.readOnly),
  );
  const valid = Object.keys(problemsOf(draft)).length === 0;
  const debounced = useDebouncedValue(draft, DEBOUNCE_MS);
  const pending = useMemo(() => filterOf(debounced), [debounced]);
  // Judged once typing pauses, so a half-typed value is not flagged at every keystroke.
  const problems = problemsOf(debounced);
  const debouncedValid = Object.keys(problems).length === 0;

  const onApplyRef = useRef(onApply);
  useEffect(() => {
    onApplyRef.current = onApply;
  });
  const lastApplied = useRef(filter);
  useEffect(() => {
    if (!debouncedValid) return;
    lastApplied.current = pending;
    onApplyRef.current(pending);
  }, [pending, debouncedValid]);

  // Back/forward or a shared link changed the filter under the form (not this form's own apply): show it.
  useEffect(() => {
    if (sameFilter(filter, lastApplied.current)) return;
    lastApplied.current = filter;
    setDraft(draftOf(filter));
  }, [filter]);

  const update = (change: Partial<FilterDraft>) => setDraft((current) => ({ ...current, ...change }));
  const empty = !draft.from && !draft.to && !draft.action && !draft.user;

  return (
    <Box
      component="form"
      role="search"
      aria-label="Filter the audit log"
      onSubmit={(event) => {
        event.preventDefault();
        if (!valid) return;
        lastApplied.current = filterOf(draft);
        onApply(lastApplied.current);
      }}
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start', mb: 2 }}
    >
      <UtcDateTimeField
        label="From (UTC)"
        value={draft.from}
        onChange={(from) => update({ from })}
        problem={problems.from}
      />
      <UtcDateTimeField
        label="To (UTC)"
        value={draft.to}
        onChange={(to) => update({ to })}
        problem={problems.to}
      />
      <ActionNameField
        value={draft.action}
        onChange={(action) => update({ action })}
        activities={activities.data ?? []}
        loading={activities.loading}
        problem={problems.action}
      />
      <TextField
        label="User"
        size="small"
        value={draft.user}
        onChange={(event) => update({ user: event.target.value })}
        helperText={draft.user ? 'Exact user name, any case' : undefined}
        sx={{ width: 170 }}
      />
      <Button
        startIcon={<FilterAltOffIcon />}
        disabled={empty}
        onClick={() => setDraft({ from: null, to: null, action: '', user: '' })}
        sx={{ mt: 0.25 }}
      >
        Clear filters
      </Button>
    </Box>
  );
}
