import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import { ApiProblemError } from '../../../api/api-errors.js';
import { environmentVariablesApi } from '../../../api/endpoints.js';
import {
  ENVIRONMENT_VARIABLE_TYPES,
  type EnvironmentVariable,
  type EnvironmentVariableKind,
  type EnvironmentVariableType,
} from '../../../api/types.js';
import { FormDialog } from '../../../components/FormDialog.js';
import { useFormSubmission } from '../../../hooks/use-form-submission.js';
import { useApiClient } from '../../../session/session-context.js';
import { IDENTIFIER_HINT, TYPE_LABEL } from '../variable-labels.js';
import { MembersEditor } from './MembersEditor.js';
import {
  draftOf,
  droppedMembers,
  emptyDraft,
  hasProblems,
  problemsOf,
  toCreateRequest,
  toModifyRequest,
  type VariableDraft,
} from './variable-form.js';

export interface VariableFormDialogProps {
  /** Absent: a new variable. */
  variable?: EnvironmentVariable;
  onClose: () => void;
  onSaved: (variable: EnvironmentVariable) => void;
}

/** Create a variable (name, description, kind, type or members), or rename and change one. */
export function VariableFormDialog({ variable, onClose, onSaved }: VariableFormDialogProps) {
  const client = useApiClient();
  const [draft, setDraft] = useState<VariableDraft>(() => (variable ? draftOf(variable) : emptyDraft()));
  const { submitted, saving, error, submit } = useFormSubmission();
  const problems = problemsOf(draft);
  const shown = submitted ? problems : { memberNames: {} };
  const nameErrors = [
    ...(shown.name ? [shown.name] : []),
    ...(error instanceof ApiProblemError ? error.fieldErrors('name') : []),
  ];
  const dropped = variable ? droppedMembers(variable, draft) : [];
  const update = (change: Partial<VariableDraft>) => setDraft((current) => ({ ...current, ...change }));

  const title = variable ? `Edit ${variable.name}` : 'New environment variable';
  return (
    <FormDialog
      titleId="variable-form-title"
      title={title}
      maxWidth="sm"
      submitLabel={variable ? 'Save' : 'Create'}
      saving={saving}
      failure={nameErrors.length === 0 ? error : undefined}
      failureContext={variable ? 'Saving the variable failed' : 'Creating the variable failed'}
      onSubmit={() =>
        void submit(!hasProblems(problems), async () => {
          const saved = variable
            ? await environmentVariablesApi.modify(client, variable.id, toModifyRequest(variable, draft))
            : await environmentVariablesApi.create(client, toCreateRequest(draft));
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
        label="Variable name"
        value={draft.name}
        onChange={(event) => update({ name: event.target.value })}
        error={nameErrors.length > 0}
        helperText={
          nameErrors.join(' ') ||
          `${IDENTIFIER_HINT} Passthroughs refer to it as {{#env.${draft.name.trim() || 'name'}${draft.kind === 'group' ? '.member' : ''}}}.`
        }
        slotProps={{ htmlInput: { maxLength: 100, spellCheck: false } }}
      />
      <TextField
        fullWidth
        multiline
        minRows={2}
        margin="dense"
        label="Description"
        value={draft.description}
        onChange={(event) => update({ description: event.target.value })}
        slotProps={{ htmlInput: { maxLength: 2000 } }}
      />
      {variable ? null : (
        <FormControl sx={{ mt: 2 }}>
          <FormLabel id="variable-kind-label">Kind</FormLabel>
          <RadioGroup
            row
            aria-labelledby="variable-kind-label"
            value={draft.kind}
            onChange={(event) => update({ kind: event.target.value as EnvironmentVariableKind })}
          >
            <FormControlLabel value="group" control={<Radio />} label="Group of typed members" />
            <FormControlLabel value="value" control={<Radio />} label="Single value" />
          </RadioGroup>
        </FormControl>
      )}
      {draft.kind === 'value' ? (
        <Box sx={{ mt: 2 }}>
          <TextField
            select
            label="Type"
            size="small"
            value={draft.type}
            onChange={(event) => update({ type: event.target.value as EnvironmentVariableType })}
            helperText="Secret values are encrypted and always shown as ********."
            sx={{ minWidth: 220 }}
          >
            {ENVIRONMENT_VARIABLE_TYPES.map((type) => (
              <MenuItem key={type} value={type}>
                {TYPE_LABEL[type]}
              </MenuItem>
            ))}
          </TextField>
        </Box>
      ) : (
        <MembersEditor
          members={draft.members}
          onChange={(members) => update({ members })}
          nameProblems={shown.memberNames}
          listProblem={shown.members}
        />
      )}
      {dropped.length > 0 ? (
        <Alert severity="warning" sx={{ mt: 2 }}>
          {dropped.length === 1 ? 'The member ' : 'The members '}
          {dropped.join(', ')} {dropped.length === 1 ? 'loses its values' : 'lose their values'} in every
          environment (a renamed member counts as removed and added).
        </Alert>
      ) : null}
    </FormDialog>
  );
}
