import Alert from '@mui/material/Alert';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { ProblemAlert } from '../../components/ProblemAlert.js';
import type { RestartState } from './use-control-panel-restart.js';

/** What the restart is doing right now, announced to screen readers. */
export function RestartProgress({ state }: { state: RestartState }) {
  if (state.phase === 'failed')
    return <ProblemAlert error={state.error} context="Restarting the Control Panel" />;
  if (state.phase === 'idle') return null;
  return (
    <Alert severity="info" icon={false} role="status">
      <Typography sx={{ mb: 1 }}>
        {state.phase === 'requesting'
          ? 'Asking the Control Panel to restart…'
          : 'The Control Panel is restarting with the new settings. The console reconnects by itself…'}
      </Typography>
      <LinearProgress aria-label="Restarting the Control Panel" />
    </Alert>
  );
}
