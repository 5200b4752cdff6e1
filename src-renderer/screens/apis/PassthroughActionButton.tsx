import Button from '@mui/material/Button';
import AltRouteIcon from '@mui/icons-material/AltRoute';
import type { ApiSummary } from '../../api/types.js';
import { useCan } from '../../session/session-context.js';
import { passthroughEditorPath } from './api-paths.js';

export interface PassthroughActionButtonProps {
  api: Pick<ApiSummary, 'id' | 'name' | 'passthroughId'>;
  variant?: 'text' | 'outlined' | 'contained';
}

/** "Create Passthrough API" or "Modify Passthrough API", as the user may; a link to the editor. */
export function PassthroughActionButton({ api, variant = 'outlined' }: PassthroughActionButtonProps) {
  const can = useCan();
  const exists = api.passthroughId !== null;
  const allowed = exists ? can('Passthroughs.View') : can('Passthroughs.Create');
  if (!allowed) return null;
  const label = exists ? 'Modify Passthrough API' : 'Create Passthrough API';
  return (
    <Button
      size="small"
      variant={variant}
      startIcon={<AltRouteIcon />}
      href={passthroughEditorPath(api.id)}
      aria-label={`${label} for ${api.name}`}
      sx={{ whiteSpace: 'nowrap' }}
    >
      {label}
    </Button>
  );
}
