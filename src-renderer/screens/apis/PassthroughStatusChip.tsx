import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import {
  PASSTHROUGH_STATUS_HINT,
  PASSTHROUGH_STATUS_LABEL,
  type PassthroughStatus,
} from './passthrough-status.js';

export function PassthroughStatusChip({ status }: { status: PassthroughStatus }) {
  return (
    <Tooltip title={PASSTHROUGH_STATUS_HINT[status]}>
      <Chip
        size="small"
        variant={status === 'deployed' ? 'filled' : 'outlined'}
        color={status === 'deployed' ? 'success' : status === 'configured' ? 'warning' : 'default'}
        label={PASSTHROUGH_STATUS_LABEL[status]}
        data-testid="passthrough-status"
      />
    </Tooltip>
  );
}
