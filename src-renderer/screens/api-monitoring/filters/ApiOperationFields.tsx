import Autocomplete from '@mui/material/Autocomplete';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { monitoringApi } from '../../../api/endpoints.js';
import type { MonitoredApiChoice } from '../../../api/types.js';
import { useApiQuery } from '../../../hooks/use-api-query.js';

export interface ApiOperationFieldsProps {
  apis: MonitoredApiChoice[];
  apiId: string;
  operation: string;
  /** `true`, `false` or empty: served by an All operations entry, by an operation's own entry, or either. */
  viaAllOperations: string;
  onChange: (change: { apiId?: string; operation?: string; viaAllOperations?: string }) => void;
}

const ALL_OPERATIONS = '*';

/**
 * The API (from the catalog), the operation as recorded (one of its operations, `*` for a request that matched
 * none, or typed freely) and which entry served it: everything an All operations entry served is not `*` alone.
 */
export function ApiOperationFields({
  apis,
  apiId,
  operation,
  viaAllOperations,
  onChange,
}: ApiOperationFieldsProps) {
  const operations = useApiQuery(apiId ? `operations:${apiId}` : null, (client, signal) =>
    monitoringApi.operationKeysOf(client, apiId, { signal }),
  );
  const options = apiId ? [ALL_OPERATIONS, ...(operations.data ?? [])] : [ALL_OPERATIONS];
  const knownApi = apiId === '' || apis.some((api) => api.id === apiId);
  return (
    <>
      <TextField
        select
        size="small"
        label="API"
        value={apiId}
        onChange={(event) => onChange({ apiId: event.target.value, operation: '' })}
        sx={{ width: 200 }}
      >
        <MenuItem value="">Any API</MenuItem>
        {knownApi ? null : (
          // An id from a shared link that the catalog does not (or no longer) list: still the filter in force.
          <MenuItem value={apiId}>API {apiId}</MenuItem>
        )}
        {apis.map((api) => (
          <MenuItem key={api.id} value={api.id}>
            {api.name}
          </MenuItem>
        ))}
      </TextField>
      <Autocomplete
        freeSolo
        options={options}
        value={operation || null}
        inputValue={operation}
        onInputChange={(_event, text) => onChange({ operation: text })}
        onChange={(_event, selected) => onChange({ operation: selected ?? '' })}
        renderOption={({ key, ...props }, option) => (
          <li key={key} {...props}>
            {option === ALL_OPERATIONS ? '* (matched no operation)' : option}
          </li>
        )}
        loading={operations.loading && apiId !== ''}
        sx={{ width: 230 }}
        renderInput={(params) => (
          <TextField {...params} size="small" label="Operation" placeholder="GET /orders/{orderId}" />
        )}
      />
      <TextField
        select
        size="small"
        label="Served by"
        value={viaAllOperations}
        onChange={(event) => onChange({ viaAllOperations: event.target.value })}
        sx={{ width: 210 }}
      >
        <MenuItem value="">Any entry</MenuItem>
        <MenuItem value="true">All operations entry</MenuItem>
        <MenuItem value="false">An operation’s own entry</MenuItem>
      </TextField>
    </>
  );
}
