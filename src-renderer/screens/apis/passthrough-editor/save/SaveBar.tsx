import { useEffect } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import SaveIcon from '@mui/icons-material/Save';
import { errorText } from '../error-text.js';

export interface SaveBarProps {
  dirty: boolean;
  /** Something to save besides the configuration (an access policy to add). */
  canSave: boolean;
  saving: boolean;
  readOnly: boolean;
  exists: boolean;
  onSave: () => void;
  onDiscard: () => void;
  /** Why the last save did not happen, in one line; shown in place of the status. */
  problem?: string;
  /** Brings the first field with a problem into view. */
  onShowProblem?: () => void;
}

/** Stays at the bottom of the window: whether there are unsaved changes, Discard and Save (also Ctrl+S). */
export function SaveBar({
  dirty,
  canSave,
  saving,
  readOnly,
  exists,
  onSave,
  onDiscard,
  problem,
  onShowProblem,
}: SaveBarProps) {
  const enabled = canSave && !saving && !readOnly;
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
        event.preventDefault();
        onSave();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [enabled, onSave]);

  let status = exists ? 'All changes are saved and deployed.' : 'Not created yet.';
  if (dirty) status = exists ? 'Unsaved changes.' : 'Unsaved: create the Passthrough API to deploy it.';
  return (
    <Box
      sx={{
        position: 'sticky',
        bottom: 0,
        zIndex: (theme) => theme.zIndex.appBar - 1,
        display: 'flex',
        alignItems: 'center',
        gap: 1.5,
        mt: 3,
        py: 1.5,
        bgcolor: 'background.default',
        borderTop: 1,
        borderColor: 'divider',
      }}
    >
      {problem && !saving ? (
        <Box sx={{ flex: 1, display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
          <Typography role="alert" data-testid="save-status" sx={(theme) => ({ ...errorText(theme) })}>
            {problem}
          </Typography>
          {onShowProblem ? (
            <Button size="small" onClick={onShowProblem} sx={{ flexShrink: 0 }}>
              Show
            </Button>
          ) : null}
        </Box>
      ) : (
        <Typography role="status" data-testid="save-status" sx={{ flex: 1, color: 'text.secondary' }}>
          {saving ? 'Saving…' : status}
        </Typography>
      )}
      <Button onClick={onDiscard} disabled={!dirty || saving || readOnly}>
        Discard changes
      </Button>
      <Button
        variant="contained"
        startIcon={<SaveIcon />}
        onClick={onSave}
        loading={saving}
        disabled={!enabled}
      >
        Save
      </Button>
    </Box>
  );
}
