import { useState, type SyntheticEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { environmentVariablesApi } from '../../../api/endpoints.js';
import type { AgentGroup, Environment, EnvironmentVariable } from '../../../api/types.js';
import { ProblemAlert } from '../../../components/ProblemAlert.js';
import { useApiClient } from '../../../session/session-context.js';
import { referenceOf, slotsOf, TYPE_LABEL } from '../variable-labels.js';
import { ValueInput } from './ValueInput.js';
import {
  buildValuesChange,
  sameDraft,
  valuesDraftOf,
  type SlotDraft,
  type ValuesDraft,
} from './values-draft.js';

export interface VariableValuesDialogProps {
  variable: EnvironmentVariable;
  environments: Environment[];
  agentGroups: AgentGroup[];
  initialEnvironmentId: string;
  onClose: () => void;
  /** After a save: the variable as the API now shows it (secrets masked). */
  onSaved: (variable: EnvironmentVariable | undefined, environment: Environment) => void;
}

function WhereItApplies({
  environmentId,
  agentGroups,
}: {
  environmentId: string;
  agentGroups: AgentGroup[];
}) {
  const groups = agentGroups.filter((group) => group.environmentId === environmentId);
  return (
    <Typography variant="body2" sx={{ color: 'text.secondary', mt: 1 }}>
      {groups.length === 0
        ? 'No agent group runs in this environment yet: these values are used once one does.'
        : `Used by the passthroughs of the agent group${groups.length > 1 ? 's' : ''} ${groups
            .map(
              (group) =>
                `${group.name} (${group.platform === 'legacy' ? 'legacy: no passthrough' : 'cross-platform'})`,
            )
            .join(', ')}.`}
    </Typography>
  );
}

/** The variable's values in one environment: one typed field per member, secrets masked until replaced. */
export function VariableValuesDialog(props: VariableValuesDialogProps) {
  const { variable, environments, agentGroups, onClose, onSaved } = props;
  const client = useApiClient();
  const [environmentId, setEnvironmentId] = useState(props.initialEnvironmentId);
  const [initial, setInitial] = useState<ValuesDraft>(() => valuesDraftOf(variable, environmentId));
  const [draft, setDraft] = useState<ValuesDraft>(initial);
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const dirty = !sameDraft(initial, draft);
  const built = buildValuesChange(variable, environmentId, draft);
  const problems = submitted ? built.problems : {};
  const environment = environments.find((candidate) => candidate.id === environmentId);

  const switchEnvironment = (next: string) => {
    const fresh = valuesDraftOf(variable, next);
    setEnvironmentId(next);
    setInitial(fresh);
    setDraft(fresh);
    setSubmitted(false);
    setError(undefined);
  };

  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setError(undefined);
    if (Object.keys(built.problems).length > 0 || !environment) return;
    const { change } = built;
    setSaving(true);
    try {
      if (change.kind === 'set') {
        onSaved(
          await environmentVariablesApi.setValues(client, variable.id, environmentId, change.request),
          environment,
        );
      } else if (change.kind === 'remove') {
        await environmentVariablesApi.removeValues(client, variable.id, environmentId);
        onSaved(undefined, environment);
      } else {
        onClose();
      }
    } catch (failure) {
      setError(failure);
      setSaving(false);
    }
  };

  const slots = slotsOf(variable);
  return (
    <Dialog
      open
      onClose={saving ? undefined : onClose}
      aria-labelledby="values-dialog-title"
      fullWidth
      maxWidth="sm"
    >
      <form onSubmit={(event) => void submit(event)} noValidate autoComplete="off">
        <DialogTitle id="values-dialog-title">Values of {variable.name}</DialogTitle>
        <DialogContent>
          <TextField
            select
            label="Environment"
            size="small"
            value={environmentId}
            onChange={(event) => switchEnvironment(event.target.value)}
            disabled={dirty || saving}
            slotProps={{ select: { 'aria-describedby': dirty ? 'switch-environment-hint' : undefined } }}
            sx={{ mt: 1, minWidth: 260 }}
          >
            {environments.map((candidate) => (
              <MenuItem key={candidate.id} value={candidate.id}>
                {candidate.name}
              </MenuItem>
            ))}
          </TextField>
          {dirty ? (
            <Typography
              id="switch-environment-hint"
              variant="caption"
              component="p"
              sx={{ color: 'text.secondary' }}
            >
              Save or discard the changes to switch environment.
            </Typography>
          ) : null}
          <WhereItApplies environmentId={environmentId} agentGroups={agentGroups} />
          <Stack spacing={2.5} sx={{ mt: 3 }}>
            {slots.map((slot) => {
              const label = slot.name || 'Value';
              const slotDraft = draft[slot.name];
              if (!slotDraft) return null;
              return (
                <Box key={`${environmentId}:${slot.name}`}>
                  <ValueInput
                    id={`value-${slot.name || 'single'}`}
                    label={label}
                    draft={slotDraft}
                    problem={problems[slot.name]}
                    onChange={(next: SlotDraft) => setDraft((current) => ({ ...current, [slot.name]: next }))}
                  />
                  <Typography variant="caption" component="div" sx={{ color: 'text.secondary', mt: 0.5 }}>
                    {TYPE_LABEL[slot.type]} · <code>{referenceOf(variable.name, slot.name)}</code>
                  </Typography>
                </Box>
              );
            })}
          </Stack>
          {error ? (
            <Box sx={{ mt: 2 }}>
              <ProblemAlert error={error} context="Saving the values failed" />
            </Box>
          ) : null}
        </DialogContent>
        <DialogActions>
          {dirty ? (
            <Button onClick={() => setDraft(initial)} disabled={saving} sx={{ mr: 'auto' }}>
              Discard changes
            </Button>
          ) : null}
          <Button onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" loading={saving} disabled={!dirty}>
            Save values
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
