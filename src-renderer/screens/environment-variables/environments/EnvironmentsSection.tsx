import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import { environmentsApi } from '../../../api/endpoints.js';
import type { AgentGroup, Environment, EnvironmentVariable } from '../../../api/types.js';
import { ConfirmDeleteDialog } from '../../../components/ConfirmDeleteDialog.js';
import { ListTable } from '../../../components/ListTable.js';
import { RowActionButton } from '../../../components/RowActionButton.js';
import { useOpenDialog } from '../../../hooks/use-open-dialog.js';
import { useApiClient, useCan } from '../../../session/session-context.js';
import { environmentIdsWithValues } from '../variable-labels.js';
import { EnvironmentFormDialog } from './EnvironmentFormDialog.js';

export interface EnvironmentsSectionProps {
  environments: Environment[];
  agentGroups: AgentGroup[];
  variables: EnvironmentVariable[];
  /** Environments changed (variables lose the values of a deleted one). */
  onChanged: () => void;
}

type OpenDialog =
  | { kind: 'create' }
  | { kind: 'rename'; environment: Environment }
  | { kind: 'delete'; environment: Environment };

/** The environments variables have values in: list, add, rename, delete. */
export function EnvironmentsSection({
  environments,
  agentGroups,
  variables,
  onChanged,
}: EnvironmentsSectionProps) {
  const client = useApiClient();
  const can = useCan();
  const { dialog, open, close, closeAfterChange } = useOpenDialog<OpenDialog>(onChanged);
  const valueCount = (environmentId: string) =>
    variables.filter((variable) => environmentIdsWithValues(variable).includes(environmentId)).length;

  return (
    <Box component="section" aria-labelledby="environments-heading">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 1 }}>
        <Typography variant="h2" id="environments-heading" sx={{ flexGrow: 1 }}>
          Environments
        </Typography>
        {can('Environments.Create') ? (
          <Button variant="outlined" startIcon={<AddIcon />} onClick={() => open({ kind: 'create' })}>
            New environment
          </Button>
        ) : null}
      </Box>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
        Each agent group runs in one environment, and its passthroughs use the variable values of that
        environment.
      </Typography>
      <ListTable label="Environments" headings={['Name', 'Agent groups', 'Variables with values']}>
        {environments.map((environment) => {
          const groups = agentGroups.filter((group) => group.environmentId === environment.id);
          return (
            <TableRow key={environment.id}>
              <TableCell>
                {environment.name}
                {environment.description ? (
                  <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                    {environment.description}
                  </Typography>
                ) : null}
              </TableCell>
              <TableCell>
                <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
                  {groups.length === 0 ? (
                    <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                      None
                    </Typography>
                  ) : (
                    groups.map((group) => <Chip key={group.id} size="small" label={group.name} />)
                  )}
                </Stack>
              </TableCell>
              <TableCell>{valueCount(environment.id)}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {can('Environments.Modify') ? (
                  <RowActionButton
                    title="Rename"
                    label={`Rename ${environment.name}`}
                    icon={<EditIcon fontSize="small" />}
                    onClick={() => open({ kind: 'rename', environment })}
                  />
                ) : null}
                {can('Environments.Delete') ? (
                  <RowActionButton
                    title="Delete"
                    label={`Delete environment ${environment.name}`}
                    icon={<DeleteIcon fontSize="small" />}
                    onClick={() => open({ kind: 'delete', environment })}
                  />
                ) : null}
              </TableCell>
            </TableRow>
          );
        })}
      </ListTable>

      {dialog.kind === 'create' || dialog.kind === 'rename' ? (
        <EnvironmentFormDialog
          environment={dialog.kind === 'rename' ? dialog.environment : undefined}
          onClose={close}
          onSaved={(saved) => {
            closeAfterChange(
              dialog.kind === 'rename'
                ? `Environment “${saved.name}” saved`
                : `Environment “${saved.name}” added`,
            );
          }}
        />
      ) : null}
      {dialog.kind === 'delete' ? (
        <ConfirmDeleteDialog
          title={`Delete the environment ${dialog.environment.name}?`}
          failureContext="Deleting the environment"
          onDelete={() => environmentsApi.remove(client, dialog.environment.id)}
          onDeleted={() => {
            closeAfterChange(`Environment “${dialog.environment.name}” deleted`);
          }}
          onClose={close}
        >
          Every variable loses its values in {dialog.environment.name}. An environment that agent groups run
          in, or that API keys belong to, cannot be deleted.
        </ConfirmDeleteDialog>
      ) : null}
    </Box>
  );
}
