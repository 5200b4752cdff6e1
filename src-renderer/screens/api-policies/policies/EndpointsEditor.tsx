import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlinedIcon from '@mui/icons-material/DeleteOutlined';
import { POLICY_METHODS, type PolicyMethod } from '../../../api/types.js';
import { newEndpointRow, type EndpointRow, type PolicyProblems } from './policy-draft.js';

export interface EndpointsEditorProps {
  endpoints: EndpointRow[];
  onChange: (endpoints: EndpointRow[]) => void;
  problems: PolicyProblems;
}

/** The endpoints a policy opens: method (or ALL) and path prefix, one row each. */
export function EndpointsEditor({ endpoints, onChange, problems }: EndpointsEditorProps) {
  const update = (key: number, change: Partial<EndpointRow>) =>
    onChange(endpoints.map((row) => (row.key === key ? { ...row, ...change } : row)));
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
      <Typography component="legend" variant="subtitle1" sx={{ mb: 0.5 }}>
        Endpoints
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1.5 }}>
        Requests whose path starts with a prefix (on the chosen agent group) fall under this policy.
      </Typography>
      {endpoints.map((row, index) => (
        <Box key={row.key} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', mb: 1.5 }}>
          <TextField
            select
            size="small"
            label={`Endpoint ${index + 1} method`}
            value={row.method}
            onChange={(event) => update(row.key, { method: event.target.value as PolicyMethod })}
            sx={{ width: 190 }}
          >
            {POLICY_METHODS.map((method) => (
              <MenuItem key={method} value={method}>
                {method === 'ALL' ? 'ALL methods' : method}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            size="small"
            label={`Endpoint ${index + 1} path prefix`}
            value={row.pathPrefix}
            onChange={(event) => update(row.key, { pathPrefix: event.target.value })}
            error={problems[`endpoints.${index}.pathPrefix`] !== undefined}
            helperText={problems[`endpoints.${index}.pathPrefix`]}
            placeholder="/orders-api/v1"
            sx={{ flex: 1 }}
            slotProps={{ htmlInput: { maxLength: 2000, spellCheck: false } }}
          />
          <IconButton
            aria-label={`Remove endpoint ${index + 1}`}
            onClick={() => onChange(endpoints.filter((candidate) => candidate.key !== row.key))}
            disabled={endpoints.length === 1}
            sx={{ mt: 0.25 }}
          >
            <DeleteOutlinedIcon />
          </IconButton>
        </Box>
      ))}
      {problems.endpoints ? <FormHelperText error>{problems.endpoints}</FormHelperText> : null}
      <Button size="small" startIcon={<AddIcon />} onClick={() => onChange([...endpoints, newEndpointRow()])}>
        Add endpoint
      </Button>
    </Box>
  );
}
