import Button from '@mui/material/Button';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import type { RestartState } from './use-control-panel-restart.js';

export interface RestartControlPanelButtonProps {
  state: RestartState;
  canRestart: boolean;
  onRestart: () => void;
  emphasized?: boolean;
}

export function RestartControlPanelButton({
  state,
  canRestart,
  onRestart,
  emphasized,
}: RestartControlPanelButtonProps) {
  const busy = state.phase === 'requesting' || state.phase === 'waiting';
  return (
    <Button
      variant={emphasized ? 'contained' : 'outlined'}
      startIcon={<RestartAltIcon />}
      onClick={onRestart}
      disabled={!canRestart}
      loading={busy}
      loadingPosition="start"
    >
      {busy ? 'Restarting…' : 'Restart Control Panel'}
    </Button>
  );
}
