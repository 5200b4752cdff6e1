import { useState } from 'react';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { isProblem } from '../../../api/api-errors.js';
import { agentGroupsApi } from '../../../api/endpoints.js';
import type { AgentGroup, AgentGroupPlatform, Environment } from '../../../api/types.js';
import { FormDialog } from '../../../components/FormDialog.js';
import { useFormSubmission } from '../../../hooks/use-form-submission.js';
import { useApiClient } from '../../../session/session-context.js';

export interface AgentGroupFormDialogProps {
  environments: Environment[];
  onClose: () => void;
  onCreated: (group: AgentGroup) => void;
}

const PORT_PATTERN = /^\d{1,5}$/;

function portProblem(text: string): string | undefined {
  if (!PORT_PATTERN.test(text.trim()) || Number(text) > 65535) return 'Enter a port from 0 to 65535.';
  return undefined;
}

/** A new agent group: where it runs (environment) and, for a cross-platform group, its gateway listener. */
export function AgentGroupFormDialog({ environments, onClose, onCreated }: AgentGroupFormDialogProps) {
  const client = useApiClient();
  const [name, setName] = useState('');
  const [environmentId, setEnvironmentId] = useState(environments[0]?.id ?? '');
  const [platform, setPlatform] = useState<AgentGroupPlatform>('cross-platform');
  const [host, setHost] = useState('127.0.0.1');
  const [port, setPort] = useState('0');
  const { submitted, saving, error, submit } = useFormSubmission();
  const problem = isProblem(error, 'GH_ERR_VALIDATION', 'GH_ERR_ALREADY_EXISTS', 'GH_ERR_PORT_IN_USE')
    ? error
    : undefined;
  const crossPlatform = platform === 'cross-platform';
  const nameErrors = [
    ...(submitted && !name.trim() ? ['Enter a name.'] : []),
    ...(problem?.fieldErrors('name') ?? []),
  ];
  const hostErrors = problem?.fieldErrors('host') ?? [];
  const portErrors = [
    ...(submitted && crossPlatform && portProblem(port) ? [portProblem(port)!] : []),
    ...(problem?.fieldErrors('port') ?? []),
  ];
  const environmentErrors = problem?.fieldErrors('environmentId') ?? [];
  const shownAtFields = nameErrors.length + hostErrors.length + portErrors.length + environmentErrors.length;

  return (
    <FormDialog
      titleId="agent-group-form-title"
      title="New agent group"
      maxWidth="sm"
      submitLabel="Create"
      saving={saving}
      failure={shownAtFields === 0 ? error : undefined}
      failureContext="Creating the agent group failed"
      onSubmit={() =>
        void submit(name.trim() !== '' && !(crossPlatform && portProblem(port)), async () => {
          onCreated(
            await agentGroupsApi.create(client, {
              name: name.trim(),
              environmentId,
              platform,
              ...(crossPlatform ? { host: host.trim(), port: Number(port) } : {}),
            }),
          );
        })
      }
      onClose={onClose}
    >
      <TextField
        autoFocus
        required
        fullWidth
        margin="dense"
        label="Agent group name"
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={nameErrors.length > 0}
        helperText={nameErrors.join(' ') || 'For example Edge or Partner gateway.'}
        slotProps={{ htmlInput: { maxLength: 200 } }}
      />
      <TextField
        select
        fullWidth
        margin="dense"
        label="Environment"
        value={environmentId}
        onChange={(event) => setEnvironmentId(event.target.value)}
        error={environmentErrors.length > 0}
        helperText={
          environmentErrors.join(' ') || 'Its passthroughs use the variable values of this environment.'
        }
      >
        {environments.map((environment) => (
          <MenuItem key={environment.id} value={environment.id}>
            {environment.name}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        fullWidth
        margin="dense"
        label="Platform"
        value={platform}
        onChange={(event) => setPlatform(event.target.value as AgentGroupPlatform)}
        helperText={
          crossPlatform
            ? 'Runs a gateway listener here and serves passthroughs.'
            : 'Legacy agents run nothing here and support no passthrough.'
        }
      >
        <MenuItem value="cross-platform">Cross-platform</MenuItem>
        <MenuItem value="legacy">Legacy</MenuItem>
      </TextField>
      {crossPlatform ? (
        <Stack direction="row" spacing={2}>
          <TextField
            margin="dense"
            label="Listener address"
            value={host}
            onChange={(event) => setHost(event.target.value)}
            error={hostErrors.length > 0}
            helperText={
              hostErrors.join(' ') || 'localhost or an IP address; 127.0.0.1 keeps it on this computer.'
            }
            sx={{ flex: 2 }}
            slotProps={{ htmlInput: { spellCheck: false } }}
          />
          <TextField
            margin="dense"
            label="Listener port"
            value={port}
            onChange={(event) => setPort(event.target.value)}
            error={portErrors.length > 0}
            helperText={portErrors.join(' ') || '0 picks a free port.'}
            sx={{ flex: 1 }}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          />
        </Stack>
      ) : null}
    </FormDialog>
  );
}
