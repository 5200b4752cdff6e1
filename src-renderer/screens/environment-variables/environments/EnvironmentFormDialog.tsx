import { useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { ApiProblemError } from '../../../api/api-errors.js';
import { environmentsApi } from '../../../api/endpoints.js';
import type { Environment } from '../../../api/types.js';
import { ProblemAlert } from '../../../components/ProblemAlert.js';
import { useApiClient } from '../../../session/session-context.js';

export interface EnvironmentFormDialogProps {
  /** Absent: a new environment. */
  environment?: Environment;
  onClose(): void;
  onSaved(environment: Environment): void;
}

/** Add an environment, or rename one and change its description. */
export function EnvironmentFormDialog({ environment, onClose, onSaved }: EnvironmentFormDialogProps) {
  const client = useApiClient();
  const [name, setName] = useState(environment?.name ?? '');
  const [description, setDescription] = useState(environment?.description ?? '');
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const nameErrors = [
    ...(submitted && !name.trim() ? ['Enter a name.'] : []),
    ...(error instanceof ApiProblemError && error.status === 400 ? error.fieldErrors('name') : []),
  ];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setError(undefined);
    if (!name.trim()) return;
    setSaving(true);
    try {
      const trimmed = description.trim();
      const saved = environment
        ? await environmentsApi.modify(client, environment.id, {
            ...(name.trim() !== environment.name ? { name: name.trim() } : {}),
            ...(trimmed !== (environment.description ?? '') ? { description: trimmed || null } : {}),
          })
        : await environmentsApi.create(client, {
            name: name.trim(),
            ...(trimmed ? { description: trimmed } : {}),
          });
      onSaved(saved);
    } catch (failure) {
      setError(failure);
      setSaving(false);
    }
  };

  return (
    <Dialog
      open
      onClose={saving ? undefined : onClose}
      aria-labelledby="environment-form-title"
      fullWidth
      maxWidth="xs"
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id="environment-form-title">
          {environment ? `Rename ${environment.name}` : 'New environment'}
        </DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            required
            fullWidth
            margin="dense"
            label="Environment name"
            value={name}
            onChange={(event) => setName(event.target.value)}
            error={nameErrors.length > 0}
            helperText={nameErrors.join(' ') || 'For example Test or Production.'}
            slotProps={{ htmlInput: { maxLength: 200 } }}
          />
          <TextField
            fullWidth
            multiline
            minRows={2}
            margin="dense"
            label="Description"
            value={description}
            onChange={(event) => setDescription(event.target.value)}
            slotProps={{ htmlInput: { maxLength: 2000 } }}
          />
          {error && nameErrors.length === 0 ? (
            <Box sx={{ mt: 2 }}>
              <ProblemAlert error={error} context="Saving the environment failed" />
            </Box>
          ) : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" loading={saving}>
            {environment ? 'Save' : 'Add'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
