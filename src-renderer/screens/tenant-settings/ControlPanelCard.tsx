import Alert from '@mui/material/Alert';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ControlPanelStatus } from '../../api/types.js';
import { formatUtc } from '../../format/date-time.js';
import { RestartControlPanelButton } from './RestartControlPanelButton.js';
import { RestartProgress } from './RestartProgress.js';
import type { RestartState } from './use-control-panel-restart.js';

export interface ControlPanelCardProps {
  status: ControlPanelStatus;
  canRestart: boolean;
  restartState: RestartState;
  onRestart: () => void;
}

/** The Control Panel listener: when it started, and whether settings wait for its restart. */
export function ControlPanelCard({ status, canRestart, restartState, onRestart }: ControlPanelCardProps) {
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="control-panel-heading"
      sx={{ p: 3, height: '100%' }}
    >
      <Typography variant="h2" id="control-panel-heading" gutterBottom>
        Control Panel
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
        The management API, Swagger UI and this console. Settings are read when it starts; restarting it does
        not interrupt the agent groups&apos; gateway listeners.
      </Typography>
      <Stack
        component="dl"
        direction="row"
        spacing={4}
        sx={{
          m: 0,
          mb: 2,
          flexWrap: 'wrap',
          '& dt': { color: 'text.secondary', fontSize: '0.8rem' },
          '& dd': { m: 0 },
        }}
      >
        <div>
          <dt>Started</dt>
          <dd data-testid="control-panel-started-at">{formatUtc(status.startedAt)}</dd>
        </div>
        <div>
          <dt>Restarts</dt>
          <dd>{status.restartCount}</dd>
        </div>
        <div>
          <dt>Version</dt>
          <dd>{status.version}</dd>
        </div>
        <div>
          <dt>Instance</dt>
          <dd data-testid="control-panel-instance">{status.instance}</dd>
        </div>
      </Stack>
      {status.sharedDatabase ? (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="control-panel-per-instance">
          Other instances share this database. Settings changed here, the pending ones and the restart apply
          to this instance ({status.instance}) only; each instance keeps its own.
        </Alert>
      ) : null}
      {status.pendingRestart ? (
        <Alert severity="warning" sx={{ mb: 2 }}>
          Some settings changed since the Control Panel of this instance ({status.instance}) started. They
          take effect when it restarts.
        </Alert>
      ) : null}
      <RestartControlPanelButton
        state={restartState}
        canRestart={canRestart}
        onRestart={onRestart}
        emphasized={status.pendingRestart}
      />
      <Stack sx={{ mt: 2 }}>
        <RestartProgress state={restartState} />
      </Stack>
    </Paper>
  );
}
