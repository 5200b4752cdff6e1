import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import { useReconnecting } from '../connection/use-reconnecting.js';

/** Shown while requests wait for the Control Panel (for example during its restart). */
export function ReconnectingIndicator() {
  const reconnecting = useReconnecting();
  return (
    <div role="status" aria-live="polite">
      {reconnecting ? (
        <Chip
          color="warning"
          icon={<CircularProgress size={14} color="inherit" aria-hidden />}
          label="Reconnecting to the Control Panel…"
        />
      ) : null}
    </div>
  );
}
