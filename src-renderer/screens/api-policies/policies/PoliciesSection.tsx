import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import { policiesApi } from '../../../api/endpoints.js';
import type { AgentGroup, Policy } from '../../../api/types.js';
import { ConfirmDeleteDialog } from '../../../components/ConfirmDeleteDialog.js';
import { useOpenDialog } from '../../../hooks/use-open-dialog.js';
import { useApiClient, useCan } from '../../../session/session-context.js';
import { agentGroupLabel } from '../policy-labels.js';
import { PoliciesTable } from './PoliciesTable.js';
import { PolicyFormDialog } from './PolicyFormDialog.js';

/** The list's agent group filter: every group. */
export const ALL_AGENT_GROUPS = '';

export interface PoliciesSectionProps {
  policies: Policy[];
  agentGroups: AgentGroup[];
  agentGroupFilter: string;
  onFilter: (agentGroupId: string) => void;
  onChanged: () => void;
}

type OpenDialog = { kind: 'create' } | { kind: 'edit'; policy: Policy } | { kind: 'delete'; policy: Policy };

export function PoliciesSection({
  policies,
  agentGroups,
  agentGroupFilter,
  onFilter,
  onChanged,
}: PoliciesSectionProps) {
  const client = useApiClient();
  const can = useCan();
  const { dialog, open, close, closeAfterChange } = useOpenDialog<OpenDialog>(onChanged);
  const shown =
    agentGroupFilter === ALL_AGENT_GROUPS
      ? policies
      : policies.filter((policy) => policy.agentGroupId === agentGroupFilter);

  return (
    <Box component="section" aria-labelledby="policies-heading">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2, flexWrap: 'wrap' }}>
        <Typography variant="h2" id="policies-heading" sx={{ flexGrow: 1 }}>
          Policies
        </Typography>
        <TextField
          select
          size="small"
          label="Agent group"
          value={agentGroupFilter}
          onChange={(event) => onFilter(event.target.value)}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          sx={{ minWidth: 220 }}
        >
          <MenuItem value={ALL_AGENT_GROUPS}>All agent groups</MenuItem>
          {agentGroups.map((group) => (
            <MenuItem key={group.id} value={group.id}>
              {agentGroupLabel(group)}
            </MenuItem>
          ))}
        </TextField>
        {can('Policies.Create') ? (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => open({ kind: 'create' })}>
            New policy
          </Button>
        ) : null}
      </Box>
      <PoliciesTable
        policies={shown}
        agentGroups={agentGroups}
        canModify={can('Policies.Modify')}
        canDelete={can('Policies.Delete')}
        onEdit={(policy) => open({ kind: 'edit', policy })}
        onDelete={(policy) => open({ kind: 'delete', policy })}
      />
      {dialog.kind === 'create' || dialog.kind === 'edit' ? (
        <PolicyFormDialog
          policy={dialog.kind === 'edit' ? dialog.policy : undefined}
          agentGroups={agentGroups}
          defaultAgentGroupId={agentGroupFilter || agentGroups[0]?.id || ''}
          onClose={close}
          onSaved={(saved) => {
            closeAfterChange(
              dialog.kind === 'edit' ? `Policy “${saved.name}” saved` : `Policy “${saved.name}” created`,
            );
          }}
        />
      ) : null}
      {dialog.kind === 'delete' ? (
        <ConfirmDeleteDialog
          title={`Delete the policy ${dialog.policy.name}?`}
          failureContext="Deleting the policy"
          onDelete={() => policiesApi.remove(client, dialog.policy.id)}
          onDeleted={() => {
            closeAfterChange(`Policy “${dialog.policy.name}” deleted`);
          }}
          onClose={close}
        >
          Its endpoints are no longer open to its grants; requests that no other policy covers are refused. A
          policy that API keys are limited to cannot be deleted.
        </ConfirmDeleteDialog>
      ) : null}
    </Box>
  );
}
