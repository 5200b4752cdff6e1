import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/Delete';
import type { ApiKey, Environment, Policy } from '../../../api/types.js';
import { ListTable } from '../../../components/ListTable.js';
import { RowActionButton } from '../../../components/RowActionButton.js';
import { formatLocal, formatUtc } from '../../../format/date-time.js';

export interface ApiKeysTableProps {
  apiKeys: ApiKey[];
  environments: Environment[];
  policies: Policy[];
  canRevoke: boolean;
  onRevoke: (apiKey: ApiKey) => void;
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
    <ListTable
      label="API keys"
      headings={['Name', 'Environment', 'Key prefix', 'Policies', 'Created', 'Expires']}
      placeholder={apiKeys.length === 0 ? 'No API keys yet.' : null}
    >
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
              <RowActionButton
                title="Revoke"
                label={`Revoke API key ${apiKey.name}`}
                icon={<DeleteIcon fontSize="small" />}
                onClick={() => onRevoke(apiKey)}
              />
            ) : null}
          </TableCell>
        </TableRow>
      ))}
    </ListTable>
  );
}
