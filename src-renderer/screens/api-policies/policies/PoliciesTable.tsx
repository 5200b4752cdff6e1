import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import type { AgentGroup, Policy } from '../../../api/types.js';
import { MONOSPACE_FONT } from '../../../theme/theme.js';
import { describeGrant, describeThrottle } from '../policy-labels.js';

export interface PoliciesTableProps {
  policies: Policy[];
  agentGroups: AgentGroup[];
  canModify: boolean;
  canDelete: boolean;
  onEdit(policy: Policy): void;
  onDelete(policy: Policy): void;
}

const listStyle = { margin: 0, paddingLeft: 0, listStyle: 'none' } as const;

export function PoliciesTable({
  policies,
  agentGroups,
  canModify,
  canDelete,
  onEdit,
  onDelete,
}: PoliciesTableProps) {
  const groupName = (id: string) => agentGroups.find((group) => group.id === id)?.name ?? id;
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-label="API policies">
        <TableHead>
          <TableRow>
            <TableCell>Name</TableCell>
            <TableCell>Agent group</TableCell>
            <TableCell>Endpoints</TableCell>
            <TableCell>Grants</TableCell>
            <TableCell>Throttle</TableCell>
            <TableCell align="right">
              <span className="visually-hidden">Actions</span>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {policies.length === 0 ? (
            <TableRow>
              <TableCell colSpan={6}>
                No API policies here yet. Without one, the gateway refuses every request.
              </TableCell>
            </TableRow>
          ) : null}
          {policies.map((policy) => (
            <TableRow key={policy.id} data-policy-name={policy.name}>
              <TableCell sx={{ verticalAlign: 'top' }}>{policy.name}</TableCell>
              <TableCell sx={{ verticalAlign: 'top' }}>{groupName(policy.agentGroupId)}</TableCell>
              <TableCell sx={{ verticalAlign: 'top' }}>
                <Box component="ul" sx={{ ...listStyle, fontFamily: MONOSPACE_FONT, fontSize: '0.8125rem' }}>
                  {policy.endpoints.map((endpoint) => (
                    <li key={`${endpoint.method} ${endpoint.pathPrefix}`}>
                      {endpoint.method} {endpoint.pathPrefix}
                    </li>
                  ))}
                </Box>
              </TableCell>
              <TableCell sx={{ verticalAlign: 'top', maxWidth: 380 }}>
                <ul style={listStyle}>
                  {policy.grants.map((grant, index) => (
                    <li key={index} style={{ wordBreak: 'break-word' }}>
                      {describeGrant(grant)}
                    </li>
                  ))}
                </ul>
              </TableCell>
              <TableCell sx={{ verticalAlign: 'top', whiteSpace: 'nowrap' }}>
                {describeThrottle(policy.throttle)}
              </TableCell>
              <TableCell align="right" sx={{ verticalAlign: 'top', whiteSpace: 'nowrap' }}>
                {canModify ? (
                  <Tooltip title="Edit">
                    <IconButton
                      size="small"
                      aria-label={`Edit policy ${policy.name}`}
                      onClick={() => onEdit(policy)}
                    >
                      <EditIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                ) : null}
                {canDelete ? (
                  <Tooltip title="Delete">
                    <IconButton
                      size="small"
                      aria-label={`Delete policy ${policy.name}`}
                      onClick={() => onDelete(policy)}
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
