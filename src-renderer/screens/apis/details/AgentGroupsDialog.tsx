import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import { apisApi } from '../../../api/apis-endpoints.js';
import type { ApiDefinition } from '../../../api/types.js';
import type { AgentGroup } from '../../../api/types.js';
import { ProblemAlert } from '../../../components/ProblemAlert.js';
import { useApiClient } from '../../../session/session-context.js';

export interface AgentGroupsDialogProps {
  api: ApiDefinition;
  agentGroups: AgentGroup[];
  onSaved: (api: ApiDefinition) => void;
  onClose: () => void;
}

/** Which agent groups expose the API; the server refuses overlapping base paths (409) and legacy groups for a passthrough (422). */
export function AgentGroupsDialog({ api, agentGroups, onSaved, onClose }: AgentGroupsDialogProps) {
  const client = useApiClient();
  const [selected, setSelected] = useState<string[]>(api.agentGroupIds);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(undefined);
  const empty = selected.length === 0;

  const toggle = (id: string, checked: boolean) =>
    setSelected((current) => (checked ? [...current, id] : current.filter((candidate) => candidate !== id)));

  const save = async () => {
    if (empty) return;
    setBusy(true);
    setFailure(undefined);
    try {
      onSaved(await apisApi.modify(client, api.id, { agentGroupIds: selected }));
    } catch (error) {
      setFailure(error);
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      aria-labelledby="agent-groups-title"
      maxWidth="sm"
      fullWidth
    >
      <DialogTitle id="agent-groups-title">Agent groups of {api.name}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 1 }}>
          Each agent group exposes the API at <code>{api.basePath}</code> on its listener. Passthrough runs
          only on cross-platform agent groups.
        </DialogContentText>
        <FormGroup aria-label="Agent groups">
          {agentGroups.map((group) => (
            <FormControlLabel
              key={group.id}
              control={
                <Checkbox
                  checked={selected.includes(group.id)}
                  onChange={(event) => toggle(group.id, event.target.checked)}
                  disabled={busy}
                />
              }
              label={group.platform === 'legacy' ? `${group.name} (legacy: no passthrough)` : group.name}
            />
          ))}
        </FormGroup>
        {empty ? <FormHelperText error>Choose at least one agent group.</FormHelperText> : null}
        {failure ? (
          <Box sx={{ mt: 2 }}>
            <ProblemAlert error={failure} context="The agent groups were not changed" />
          </Box>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button variant="contained" onClick={() => void save()} loading={busy} disabled={empty}>
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}
