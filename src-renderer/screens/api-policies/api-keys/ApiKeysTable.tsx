import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/Delete';
import type { ApiKey, Environment, Policy } from '../../../api/types.js';
import { formatLocal, formatUtc } from '../../../format/date-time.js';

export interface ApiKeysTableProps {
  apiKeys: ApiKey[];
  environments: Environment[];
  policies: Policy[];
  canRevoke: boolean;
  onRevoke(apiKey: ApiKey): void;
}

function When({ iso }: { iso: string }) {
  return (
    <Tooltip title={formatLocal(iso)}>
      <span>{formatUtc(iso)}</span>
    </Tooltip>
  );
}

/** API keys without the keys: name, environment, recognisable prefix, policies, dates. */
export function ApiKeysTable({ apiKeys, environments, policies, canRevoke, onRevoke }: ApiKeysTableProps) {
  const environmentName = (id: string) =>
    environments.find((environment) => environment.id === id)?.name ?? id;
  const policyName = (id: string) => policies.find((policy) => policy.id === id)?.name ?? id;
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-label="API keys">
        <TableHead>
          <TableRow>
            <TableCell>Name</TableCell>
            <TableCell>Environment</TableCell>
            <TableCell>Key prefix</TableCell>
            <TableCell>Policies</TableCell>
            <TableCell>Created</TableCell>
            <TableCell>Expires</TableCell>
            <TableCell align="right">
              <span className="visually-hidden">Actions</span>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {apiKeys.length === 0 ? (
            <TableRow>
              <TableCell colSpan={7}>No API keys yet.</TableCell>
            </TableRow>
          ) : null}
          {apiKeys.map((apiKey) => (
            <TableRow key={apiKey.id} data-api-key-name={apiKey.name}>
              <TableCell>{apiKey.name}</TableCell>
              <TableCell>{environmentName(apiKey.environmentId)}</TableCell>
              <TableCell>
                <code data-testid="api-key-prefix">{apiKey.prefix}…</code>
              </TableCell>
              <TableCell>
                {apiKey.policyIds.length === 0 ? (
                  <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                    Every API-key policy of its environment
                  </Typography>
                ) : (
                  <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
                    {apiKey.policyIds.map((id) => (
                      <Chip key={id} size="small" variant="outlined" label={policyName(id)} />
                    ))}
                  </Stack>
                )}
              </TableCell>
              <TableCell>
                <When iso={apiKey.createdAt} />
              </TableCell>
              <TableCell>
                {apiKey.expiresAt ? <When iso={apiKey.expiresAt} /> : 'Never'}
                {apiKey.expired ? <Chip size="small" color="error" label="Expired" sx={{ ml: 1 }} /> : null}
              </TableCell>
              <TableCell align="right">
                {canRevoke ? (
                  <Tooltip title="Revoke">
                    <IconButton
                      size="small"
                      aria-label={`Revoke API key ${apiKey.name}`}
                      onClick={() => onRevoke(apiKey)}
                    >
                      <DeleteIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                ) : null}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
