import { useState, type FormEvent } from 'react';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import TextField from '@mui/material/TextField';
import { ApiProblemError } from '../../../api/api-errors.js';
import { appRegistrationsApi } from '../../../api/endpoints.js';
import { BUILT_IN_ROLES, type AppRegistrationWithSecret, type RoleName } from '../../../api/types.js';
import { ProblemAlert } from '../../../components/ProblemAlert.js';
import { useApiClient } from '../../../session/session-context.js';

const ROLE_HELP: Record<RoleName, string> = {
  Operator: 'everything, including tenant settings',
  Administrator: 'everything but tenant settings, restarts and registrations',
  Auditor: 'read-only',
};

export interface CreateAppRegistrationDialogProps {
  onClose(): void;
  onCreated(created: AppRegistrationWithSecret): void;
}

export function CreateAppRegistrationDialog({ onClose, onCreated }: CreateAppRegistrationDialogProps) {
  const client = useApiClient();
  const [name, setName] = useState('');
  const [roles, setRoles] = useState<RoleName[]>(['Auditor']);
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const problem = error instanceof ApiProblemError ? error : undefined;
  const nameErrors = [
    ...(submitted && !name.trim() ? ['Enter a name.'] : []),
    ...(problem?.fieldErrors('name') ?? []),
  ];
  const roleErrors = [
    ...(submitted && roles.length === 0 ? ['Choose at least one role.'] : []),
    ...(problem?.fieldErrors('roles') ?? []),
  ];
  const otherError = error && nameErrors.length + roleErrors.length === 0 ? error : undefined;

  const toggleRole = (role: RoleName, checked: boolean) =>
    setRoles((current) => (checked ? [...current, role] : current.filter((r) => r !== role)));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setError(undefined);
    if (!name.trim() || roles.length === 0) return;
    setSaving(true);
    try {
      onCreated(await appRegistrationsApi.create(client, { name: name.trim(), roles }));
    } catch (failure) {
      setError(failure);
      setSaving(false);
    }
  };

  return (
    <Dialog
      open
      onClose={saving ? undefined : onClose}
      aria-labelledby="create-registration-title"
      fullWidth
      maxWidth="sm"
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id="create-registration-title">New application registration</DialogTitle>
        <DialogContent>
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
          {otherError ? <ProblemAlert error={otherError} context="Creating the registration failed" /> : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" loading={saving}>
            Create
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
