import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import RefreshIcon from '@mui/icons-material/Refresh';
import { formatUtc } from '../../format/date-time.js';
import { AUTO_REFRESH_MS } from './use-auto-refresh.js';

export interface RefreshControlsProps {
  autoRefresh: boolean;
  onAutoRefreshChange: (on: boolean) => void;
  refreshing: boolean;
  loadedAt: Date | undefined;
  onRefresh: () => void;
}

/** "Refresh now", the auto-refresh switch, and when the data shown was loaded. */
export function RefreshControls({
  autoRefresh,
  onAutoRefreshChange,
  refreshing,
  loadedAt,
  onRefresh,
}: RefreshControlsProps) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
      {loadedAt ? (
        <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="monitoring-loaded-at">
          Updated {formatUtc(loadedAt.toISOString()).replace(' UTC', '')} UTC
        </Typography>
      ) : null}
      <FormControlLabel
        control={
          <Switch checked={autoRefresh} onChange={(event) => onAutoRefreshChange(event.target.checked)} />
        }
        label={`Auto-refresh every ${AUTO_REFRESH_MS / 1000} s`}
      />
      <Button
        variant="outlined"
        startIcon={<RefreshIcon />}
        onClick={onRefresh}
        loading={refreshing}
        loadingPosition="start"
      >
        Refresh
      </Button>
    </Box>
  );
}
