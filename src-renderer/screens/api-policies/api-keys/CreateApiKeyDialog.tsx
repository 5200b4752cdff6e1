import { useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { Dayjs } from 'dayjs';
import { isProblem } from '../../../api/api-errors.js';
import { apiKeysApi } from '../../../api/endpoints.js';
import type { AgentGroup, CreatedApiKey, Environment, Policy } from '../../../api/types.js';
import { FormDialog } from '../../../components/FormDialog.js';
import { UtcDateTimeField } from '../../../components/UtcDateTimeField.js';
import { useFormSubmission } from '../../../hooks/use-form-submission.js';
import { useApiClient } from '../../../session/session-context.js';
import { acceptsApiKeys } from '../policy-labels.js';

export interface CreateApiKeyDialogProps {
  environments: Environment[];
  agentGroups: AgentGroup[];
  policies: Policy[];
  onClose: () => void;
  onCreated: (created: CreatedApiKey) => void;
}

function expiryProblem(expiry: Dayjs | null): string | undefined {
  if (!expiry) return undefined;
  if (!expiry.isValid()) return 'Enter a complete date and time.';
  if (!expiry.isAfter(Date.now())) return 'The expiry must be in the future.';
  return undefined;
}

/** A new key for one environment, optionally limited to some of its API-key policies and expiring. */
export function CreateApiKeyDialog({
  environments,
  agentGroups,
  policies,
  onClose,
  onCreated,
}: CreateApiKeyDialogProps) {
  const client = useApiClient();
  const [name, setName] = useState('');
  const [environmentId, setEnvironmentId] = useState(environments[0]?.id ?? '');
  const [policyIds, setPolicyIds] = useState<string[]>([]);
  const [expiry, setExpiry] = useState<Dayjs | null>(null);
  const { submitted, saving, error, submit } = useFormSubmission();
  const problem = isProblem(error, 'GH_ERR_VALIDATION', 'GH_ERR_ALREADY_EXISTS') ? error : undefined;
  const groupsInEnvironment = new Set(
    agentGroups.filter((group) => group.environmentId === environmentId).map((group) => group.id),
  );
  const choices = policies.filter(
    (policy) => acceptsApiKeys(policy) && groupsInEnvironment.has(policy.agentGroupId),
  );
  const chosen = choices.filter((policy) => policyIds.includes(policy.id));
  const nameErrors = [
    ...(submitted && !name.trim() ? ['Enter a name.'] : []),
    ...(problem?.fieldErrors('name') ?? []),
  ];
  const expiryErrors = [
    ...(submitted && expiryProblem(expiry) ? [expiryProblem(expiry)!] : []),
    ...(problem?.fieldErrors('expiresAt') ?? []),
  ];
  const policyErrors = problem?.fieldErrors('policyIds') ?? [];
  const otherError =
    error && nameErrors.length + expiryErrors.length + policyErrors.length === 0 ? error : undefined;

  return (
    <FormDialog
      titleId="create-api-key-title"
      title="New API key"
      maxWidth="sm"
      submitLabel="Create key"
      saving={saving}
      failure={otherError}
      failureContext="Creating the API key failed"
      onSubmit={() =>
        void submit(name.trim() !== '' && environmentId !== '' && !expiryProblem(expiry), async () => {
          onCreated(
            await apiKeysApi.create(client, {
              name: name.trim(),
              environmentId,
              policyIds: chosen.map((policy) => policy.id),
              ...(expiry ? { expiresAt: expiry.utc().toISOString() } : {}),
            }),
          );
        })
      }
      onClose={onClose}
    >
      <Stack spacing={2.5} sx={{ mt: 1 }}>
        <TextField
          autoFocus
          required
          size="small"
          label="Key name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={nameErrors.length > 0}
          helperText={nameErrors.join(' ') || 'Who or what uses it, e.g. "Web shop checkout".'}
          slotProps={{ htmlInput: { maxLength: 200 } }}
        />
        <TextField
          select
          required
          size="small"
          label="Environment"
          value={environmentId}
          onChange={(event) => {
            setEnvironmentId(event.target.value);
            setPolicyIds([]);
          }}
          helperText="The key works on the agent groups that run in this environment."
        >
          {environments.map((environment) => (
            <MenuItem key={environment.id} value={environment.id}>
              {environment.name}
            </MenuItem>
          ))}
        </TextField>
        <Autocomplete
          multiple
          options={choices}
          value={chosen}
          getOptionLabel={(policy) => policy.name}
          isOptionEqualToValue={(option, value) => option.id === value.id}
          onChange={(_event, selected) => setPolicyIds(selected.map((policy) => policy.id))}
          noOptionsText="No policy of this environment accepts API keys."
          renderInput={(params) => (
            <TextField
              {...params}
              size="small"
              label="Limit to policies"
              error={policyErrors.length > 0}
              helperText={
                policyErrors.join(' ') || 'Optional. Empty: every API-key policy of the environment.'
              }
            />
          )}
        />
        <UtcDateTimeField
          label="Expires (UTC)"
          value={expiry}
          onChange={setExpiry}
          disablePast
          width={300}
          problem={expiryErrors.length > 0 ? expiryErrors.join(' ') : undefined}
          helperText="Optional. Empty: the key never expires."
        />
      </Stack>
    </FormDialog>
  );
}
