import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import { agentGroupsApi } from '../../../api/endpoints.js';
import type { AgentGroup, Environment } from '../../../api/types.js';
import { ConfirmDeleteDialog } from '../../../components/ConfirmDeleteDialog.js';
import { ListTable } from '../../../components/ListTable.js';
import { RowActionButton } from '../../../components/RowActionButton.js';
import { useOpenDialog } from '../../../hooks/use-open-dialog.js';
import { useApiClient, useCan } from '../../../session/session-context.js';
import { MONOSPACE_FONT } from '../../../theme/theme.js';
import { AgentGroupFormDialog } from './AgentGroupFormDialog.js';

/** The id of the agent group every data dir starts with; it cannot be deleted. */
const DEFAULT_AGENT_GROUP_ID = 'default';

export interface AgentGroupsSectionProps {
  agentGroups: AgentGroup[];
  environments: Environment[];
  /** Agent groups changed. */
  onChanged: () => void;
}

type OpenDialog = { kind: 'create' } | { kind: 'delete'; group: AgentGroup };

function listenerText(group: AgentGroup): string {
  if (group.platform !== 'cross-platform') return '—';
  if (group.listenerUrl) return group.listenerUrl;
  return `not running (${group.host}:${group.port})`;
}

/** Which agent group runs in which environment, where its gateway listens; add and delete groups. */
export function AgentGroupsSection({ agentGroups, environments, onChanged }: AgentGroupsSectionProps) {
  const client = useApiClient();
  const can = useCan();
  const { dialog, open, close, closeAfterChange } = useOpenDialog<OpenDialog>(onChanged);
  const environmentName = (id: string) =>
    environments.find((environment) => environment.id === id)?.name ?? id;
  return (
    <Box component="section" aria-labelledby="agent-groups-heading">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 1 }}>
        <Typography variant="h2" id="agent-groups-heading" sx={{ flexGrow: 1 }}>
          Agent groups
        </Typography>
        {can('AgentGroups.Create') ? (
          <Button variant="outlined" startIcon={<AddIcon />} onClick={() => open({ kind: 'create' })}>
            New agent group
          </Button>
        ) : null}
      </Box>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
        Where values apply. Passthrough runs only on cross-platform agent groups, each on its own gateway
        listener; legacy groups do not support it.
      </Typography>
      <ListTable label="Agent groups" headings={['Name', 'Environment', 'Platform', 'Gateway listener']}>
        {agentGroups.map((group) => (
          <TableRow key={group.id} data-agent-group-name={group.name}>
            <TableCell>{group.name}</TableCell>
            <TableCell>{environmentName(group.environmentId)}</TableCell>
            <TableCell>
              {group.platform === 'cross-platform' ? (
                <Chip size="small" color="primary" variant="outlined" label="Cross-platform" />
              ) : (
                <Chip size="small" variant="outlined" label="Legacy (no passthrough)" />
              )}
            </TableCell>
            <TableCell sx={{ fontFamily: MONOSPACE_FONT, fontSize: '0.8125rem' }}>
              {listenerText(group)}
            </TableCell>
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              {can('AgentGroups.Delete') && group.id !== DEFAULT_AGENT_GROUP_ID ? (
                <RowActionButton
                  title="Delete"
                  label={`Delete agent group ${group.name}`}
                  icon={<DeleteIcon fontSize="small" />}
                  onClick={() => open({ kind: 'delete', group })}
                />
              ) : null}
            </TableCell>
          </TableRow>
        ))}
      </ListTable>

      {dialog.kind === 'create' ? (
        <AgentGroupFormDialog
          environments={environments}
          onClose={close}
          onCreated={(created) => closeAfterChange(`Agent group “${created.name}” added`)}
        />
      ) : null}
      {dialog.kind === 'delete' ? (
        <ConfirmDeleteDialog
          title={`Delete the agent group ${dialog.group.name}?`}
          failureContext="Deleting the agent group"
          onDelete={() => agentGroupsApi.remove(client, dialog.group.id)}
          onDeleted={() => closeAfterChange(`Agent group “${dialog.group.name}” deleted`)}
          onClose={close}
        >
          Its gateway listener stops. A group that APIs or policies use cannot be deleted.
        </ConfirmDeleteDialog>
      ) : null}
    </Box>
  );
}
