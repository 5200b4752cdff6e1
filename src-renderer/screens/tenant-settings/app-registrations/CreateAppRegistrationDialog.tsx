import { useState } from 'react';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import TextField from '@mui/material/TextField';
import { ApiProblemError } from '../../../api/api-errors.js';
import { appRegistrationsApi } from '../../../api/endpoints.js';
import { BUILT_IN_ROLES, type AppRegistrationWithSecret, type RoleName } from '../../../api/types.js';
import { FormDialog } from '../../../components/FormDialog.js';
import { useFormSubmission } from '../../../hooks/use-form-submission.js';
import { useApiClient } from '../../../session/session-context.js';

const ROLE_HELP: Record<RoleName, string> = {
  Operator: 'everything, including tenant settings',
  Administrator: 'everything but tenant settings, restarts and registrations',
  Auditor: 'read-only',
};

export interface CreateAppRegistrationDialogProps {
  onClose: () => void;
  onCreated: (created: AppRegistrationWithSecret) => void;
}

export function CreateAppRegistrationDialog({ onClose, onCreated }: CreateAppRegistrationDialogProps) {
  const client = useApiClient();
  const [name, setName] = useState('');
  const [roles, setRoles] = useState<RoleName[]>(['Auditor']);
  const { submitted, saving, error, submit } = useFormSubmission();
  const problem = error instanceof ApiProblemError ? error : undefined;
  const nameErrors = [
    ...(submitted && !name.trim() ? ['Enter a name.'] : []),
    ...(problem?.fieldErrors('name') ?? []),
  ];
  const roleErrors = [
    ...(submitted && roles.length === 0 ? ['Choose at least one role.'] : []),
    ...(problem?.fieldErrors('roles') ?? []),
  ];

  const toggleRole = (role: RoleName, checked: boolean) =>
    setRoles((current) => (checked ? [...current, role] : current.filter((r) => r !== role)));

  return (
    <FormDialog
      titleId="create-registration-title"
      title="New application registration"
      maxWidth="sm"
      submitLabel="Create"
      saving={saving}
      failure={nameErrors.length + roleErrors.length === 0 ? error : undefined}
      failureContext="Creating the registration failed"
      onSubmit={() =>
        void submit(name.trim() !== '' && roles.length > 0, async () =>
          onCreated(await appRegistrationsApi.create(client, { name: name.trim(), roles })),
        )
      }
      onClose={onClose}
    >
      <TextField
        autoFocus
        required
        fullWidth
        margin="dense"
        label="Name"
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={nameErrors.length > 0}
        helperText={nameErrors.join(' ') || 'Appears as the user name in the audit log.'}
        slotProps={{ htmlInput: { maxLength: 100 } }}
      />
      <FormControl component="fieldset" error={roleErrors.length > 0} sx={{ mt: 2 }}>
        <FormLabel component="legend">Roles</FormLabel>
        <FormGroup>
          {BUILT_IN_ROLES.map((role) => (
            <FormControlLabel
              key={role}
              control={
                <Checkbox
                  checked={roles.includes(role)}
                  onChange={(event) => toggleRole(role, event.target.checked)}
                />
              }
              label={`${role} — ${ROLE_HELP[role]}`}
            />
          ))}
        </FormGroup>
        {roleErrors.length > 0 ? <FormHelperText>{roleErrors.join(' ')}</FormHelperText> : null}
      </FormControl>
    </FormDialog>
  );
}
