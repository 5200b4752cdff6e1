import Box from '@mui/material/Box';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import type { AgentGroup, Policy } from '../../../api/types.js';
import { ListTable } from '../../../components/ListTable.js';
import { RowActionButton } from '../../../components/RowActionButton.js';
import { MONOSPACE_FONT } from '../../../theme/theme.js';
import { describeGrant, describeThrottle } from '../policy-labels.js';

export interface PoliciesTableProps {
  policies: Policy[];
  agentGroups: AgentGroup[];
  canModify: boolean;
  canDelete: boolean;
  onEdit: (policy: Policy) => void;
  onDelete: (policy: Policy) => void;
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
    <ListTable
      label="API policies"
      headings={['Name', 'Agent group', 'Endpoints', 'Grants', 'Throttle']}
      placeholder={
        policies.length === 0
          ? 'No API policies here yet. Without one, the gateway refuses every request.'
          : null
      }
    >
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
              <RowActionButton
                title="Edit"
                label={`Edit policy ${policy.name}`}
                icon={<EditIcon fontSize="small" />}
                onClick={() => onEdit(policy)}
              />
            ) : null}
            {canDelete ? (
              <RowActionButton
                title="Delete"
                label={`Delete policy ${policy.name}`}
                icon={<DeleteIcon fontSize="small" />}
                onClick={() => onDelete(policy)}
              />
            ) : null}
          </TableCell>
        </TableRow>
      ))}
    </ListTable>
  );
}
