import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import { environmentVariablesApi } from '../../../api/endpoints.js';
import type { AgentGroup, Environment, EnvironmentVariable } from '../../../api/types.js';
import { ConfirmDeleteDialog } from '../../../components/ConfirmDeleteDialog.js';
import { useOpenDialog } from '../../../hooks/use-open-dialog.js';
import { useNotifier } from '../../../notifications/notifier-context.js';
import { useApiClient, useCan } from '../../../session/session-context.js';
import { VariableValuesDialog } from '../values/VariableValuesDialog.js';
import { VariableFormDialog } from './VariableFormDialog.js';
import { VariablesTable } from './VariablesTable.js';

export interface VariablesSectionProps {
  variables: EnvironmentVariable[];
  environments: Environment[];
  agentGroups: AgentGroup[];
  shownEnvironmentId: string | undefined;
  onShowEnvironment: (environmentId: string) => void;
  onChanged: () => void;
}

type OpenDialog =
  | { kind: 'create' }
  | { kind: 'edit'; variable: EnvironmentVariable }
  | { kind: 'values'; variable: EnvironmentVariable }
  | { kind: 'delete'; variable: EnvironmentVariable };

/** The variables, the environment whose values they show, and their dialogs. */
export function VariablesSection(props: VariablesSectionProps) {
  const { variables, environments, agentGroups, shownEnvironmentId, onChanged } = props;
  const client = useApiClient();
  const can = useCan();
  const { notify } = useNotifier();
  const { dialog, open, close, closeAfterChange } = useOpenDialog<OpenDialog>(onChanged);
  const shownEnvironment = environments.find((environment) => environment.id === shownEnvironmentId);

  return (
    <Box component="section" aria-labelledby="variables-heading">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2, flexWrap: 'wrap' }}>
        <Typography variant="h2" id="variables-heading" sx={{ flexGrow: 1 }}>
          Variables
        </Typography>
        <TextField
          select
          size="small"
          label="Show values of"
          value={shownEnvironment ? shownEnvironment.id : ''}
          onChange={(event) => props.onShowEnvironment(event.target.value)}
          sx={{ minWidth: 220 }}
        >
          {environments.map((environment) => (
            <MenuItem key={environment.id} value={environment.id}>
              {environment.name}
            </MenuItem>
          ))}
        </TextField>
        {can('EnvironmentVariables.Create') ? (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => open({ kind: 'create' })}>
            New variable
          </Button>
        ) : null}
      </Box>
      <VariablesTable
        variables={variables}
        environments={environments}
        shownEnvironment={shownEnvironment}
        canModify={can('EnvironmentVariables.Modify')}
        canDelete={can('EnvironmentVariables.Delete')}
        onEditValues={(variable) => open({ kind: 'values', variable })}
        onEdit={(variable) => open({ kind: 'edit', variable })}
        onDelete={(variable) => open({ kind: 'delete', variable })}
      />

      {dialog.kind === 'create' || dialog.kind === 'edit' ? (
        <VariableFormDialog
          variable={dialog.kind === 'edit' ? dialog.variable : undefined}
          onClose={close}
          onSaved={(saved) => {
            onChanged();
            notify({
              severity: 'success',
              title:
                dialog.kind === 'edit'
                  ? `Variable “${saved.name}” saved`
                  : `Variable “${saved.name}” created`,
              ...(dialog.kind === 'create' ? { detail: 'Set its values per environment next.' } : {}),
            });
            // A new variable has no values yet: the next step is to set them.
            open(
              dialog.kind === 'create' && shownEnvironmentId
                ? { kind: 'values', variable: saved }
                : { kind: 'none' },
            );
          }}
        />
      ) : null}
      {dialog.kind === 'values' && shownEnvironmentId ? (
        <VariableValuesDialog
          variable={dialog.variable}
          environments={environments}
          agentGroups={agentGroups}
          initialEnvironmentId={shownEnvironmentId}
          onClose={close}
          onSaved={(_saved, environment) => {
            closeAfterChange(`Values of “${dialog.variable.name}” saved for ${environment.name}`);
          }}
        />
      ) : null}
      {dialog.kind === 'delete' ? (
        <ConfirmDeleteDialog
          title={`Delete the variable ${dialog.variable.name}?`}
          failureContext="Deleting the variable"
          onDelete={() => environmentVariablesApi.remove(client, dialog.variable.id)}
          onDeleted={() => {
            closeAfterChange(`Variable “${dialog.variable.name}” deleted`);
          }}
          onClose={close}
        >
          Its values in every environment are deleted too. A variable that a saved passthrough refers to
          cannot be deleted.
        </ConfirmDeleteDialog>
      ) : null}
    </Box>
  );
}
