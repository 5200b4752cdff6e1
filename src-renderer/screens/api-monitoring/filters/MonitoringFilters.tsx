import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import FilterAltOffIcon from '@mui/icons-material/FilterAltOff';
import { MONITORING_OUTCOMES, type AgentGroup, type MonitoredApiChoice } from '../../../api/types.js';
import { InstanceField } from '../../../components/InstanceField.js';
import { UtcRangeFields } from '../../../components/UtcRangeFields.js';
import { useFilterDraft } from '../../../hooks/use-filter-draft.js';
import { RANGE_LABEL, type MonitoringViewFilter, type RangeChoice } from '../monitoring-view.js';
import { OUTCOME } from '../outcome-labels.js';
import { ApiOperationFields } from './ApiOperationFields.js';
import { MONITORING_FILTER_FORM, emptyDraft, isEmptyDraft } from './filter-draft.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE'];
const STATUS_SUGGESTIONS = ['2xx', '3xx', '4xx', '5xx', '404', '401', '429', '502'];

export interface MonitoringFiltersProps {
  filter: MonitoringViewFilter;
  onApply: (filter: MonitoringViewFilter) => void;
  apis: MonitoredApiChoice[];
  agentGroups: AgentGroup[];
}

/**
 * Time range, API, operation, status, method, duration, path, agent group, outcome and instance; applied as typing
 * pauses.
 */
export function MonitoringFilters({ filter, onApply, apis, agentGroups }: MonitoringFiltersProps) {
  const { draft, problems, update, submit } = useFilterDraft(MONITORING_FILTER_FORM, filter, onApply);
  const textField = (key: 'path' | 'minDurationMs', label: string, width: number, placeholder?: string) => (
    <TextField
      label={label}
      size="small"
      value={draft[key]}
      placeholder={placeholder}
      onChange={(event) => update({ [key]: event.target.value })}
      error={problems[key] !== undefined}
      helperText={problems[key]}
      sx={{ width }}
      slotProps={{
        htmlInput: { spellCheck: false, ...(key === 'minDurationMs' ? { inputMode: 'decimal' } : {}) },
      }}
    />
  );

  return (
    <Box
      component="form"
      role="search"
      aria-label="Filter the monitored requests"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start', mb: 2 }}
    >
      <TextField
        select
        size="small"
        label="Time range"
        value={draft.range}
        onChange={(event) => update({ range: event.target.value as RangeChoice })}
        sx={{ width: 200 }}
      >
        {(Object.keys(RANGE_LABEL) as RangeChoice[]).map((range) => (
          <MenuItem key={range} value={range}>
            {RANGE_LABEL[range]}
          </MenuItem>
        ))}
      </TextField>
      {draft.range === 'custom' ? (
        <UtcRangeFields from={draft.from} to={draft.to} problems={problems} onChange={update} />
      ) : null}
      <ApiOperationFields
        apis={apis}
        apiId={draft.apiId}
        operation={draft.operation}
        viaAllOperations={draft.viaAllOperations}
        onChange={(change) => update(change)}
      />
      <Autocomplete
        freeSolo
        options={STATUS_SUGGESTIONS}
        value={draft.status || null}
        inputValue={draft.status}
        onInputChange={(_event, status) => update({ status })}
        onChange={(_event, status) => update({ status: status ?? '' })}
        sx={{ width: 150 }}
        renderInput={(params) => (
          <TextField
            {...params}
            size="small"
            label="Status"
            placeholder="404 or 4xx"
            error={problems.status !== undefined}
            helperText={problems.status}
          />
        )}
      />
      <TextField
        select
        size="small"
        label="Method"
        value={draft.method.toUpperCase()}
        onChange={(event) => update({ method: event.target.value })}
        sx={{ width: 130 }}
      >
        <MenuItem value="">Any</MenuItem>
        {METHODS.map((method) => (
          <MenuItem key={method} value={method}>
            {method}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label="Outcome"
        value={draft.outcome}
        onChange={(event) => update({ outcome: event.target.value })}
        sx={{ width: 190 }}
      >
        <MenuItem value="">Any outcome</MenuItem>
        {MONITORING_OUTCOMES.map((outcome) => (
          <MenuItem key={outcome} value={outcome}>
            {OUTCOME[outcome].label}
          </MenuItem>
        ))}
      </TextField>
      {textField('path', 'Path prefix', 200, '/orders-api/v1')}
      {textField('minDurationMs', 'Min. duration (ms)', 180)}
      <TextField
        select
        size="small"
        label="Agent group"
        value={agentGroups.some((group) => group.id === draft.agentGroupId) ? draft.agentGroupId : ''}
        onChange={(event) => update({ agentGroupId: event.target.value })}
        sx={{ width: 170 }}
      >
        <MenuItem value="">Any group</MenuItem>
        {agentGroups.map((group) => (
          <MenuItem key={group.id} value={group.id}>
            {group.name}
          </MenuItem>
        ))}
      </TextField>
      <InstanceField value={draft.instance} onChange={(instance) => update({ instance })} />
      <Button
        startIcon={<FilterAltOffIcon />}
        disabled={isEmptyDraft(draft)}
        onClick={() => update(emptyDraft())}
        sx={{ mt: 0.25 }}
      >
        Clear filters
      </Button>
    </Box>
  );
}
