import { useState } from 'react';
import TextField from '@mui/material/TextField';
import { isProblem } from '../../../api/api-errors.js';
import { environmentsApi } from '../../../api/endpoints.js';
import type { Environment } from '../../../api/types.js';
import { FormDialog } from '../../../components/FormDialog.js';
import { useFormSubmission } from '../../../hooks/use-form-submission.js';
import { useApiClient } from '../../../session/session-context.js';

export interface EnvironmentFormDialogProps {
  /** Absent: a new environment. */
  environment?: Environment;
  onClose: () => void;
  onSaved: (environment: Environment) => void;
}

/** Add an environment, or rename one and change its description. */
export function EnvironmentFormDialog({ environment, onClose, onSaved }: EnvironmentFormDialogProps) {
  const client = useApiClient();
  const [name, setName] = useState(environment?.name ?? '');
  const [description, setDescription] = useState(environment?.description ?? '');
  const { submitted, saving, error, submit } = useFormSubmission();
  const nameErrors = [
    ...(submitted && !name.trim() ? ['Enter a name.'] : []),
    ...(isProblem(error, 'GH_ERR_VALIDATION', 'GH_ERR_ALREADY_EXISTS') ? error.fieldErrors('name') : []),
  ];

  return (
    <FormDialog
      titleId="environment-form-title"
      title={environment ? `Rename ${environment.name}` : 'New environment'}
      maxWidth="xs"
      submitLabel={environment ? 'Save' : 'Add'}
      saving={saving}
      failure={nameErrors.length === 0 ? error : undefined}
      failureContext="Saving the environment failed"
      onSubmit={() =>
        void submit(name.trim() !== '', async () => {
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
        })
      }
      onClose={onClose}
    >
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
    </FormDialog>
  );
}
