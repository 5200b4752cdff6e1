import { useEffect, useRef, useState, type ReactNode } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Box from '@mui/material/Box';
import { isProblem } from '../api/api-errors.js';
import { ProblemAlert } from './ProblemAlert.js';

export interface ConfirmDeleteDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel?: string;
  /** What failed, e.g. "Deleting the variable" (the inline alert's context). */
  failureContext: string;
  /** Resolves when deleted; a rejection is shown inside the dialog, which stays open. */
  onDelete: () => Promise<void>;
  onDeleted: () => void;
  onClose: () => void;
}

/**
 * A destructive confirmation whose failure is shown in the dialog itself: a refusal (409 "in use by …") names
 * what blocks the deletion, where the user is looking, and the dialog stays open until they close it.
 */
export function ConfirmDeleteDialog({
  title,
  children,
  confirmLabel = 'Delete',
  failureContext,
  onDelete,
  onDeleted,
  onClose,
}: ConfirmDeleteDialogProps) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(undefined);
  // What depends on the item will not go away by trying again at once; other failures (network) may.
  const blocked = isProblem(failure, 'GH_ERR_IN_USE', 'GH_ERR_DEFAULT_AGENT_GROUP');
  const closeButton = useRef<HTMLButtonElement>(null);
  // The delete button goes away when the deletion is refused: the focus moves to the way out.
  useEffect(() => {
    if (blocked) closeButton.current?.focus();
  }, [blocked]);

  const confirm = async () => {
    setBusy(true);
    setFailure(undefined);
    try {
      await onDelete();
      onDeleted();
    } catch (error) {
      setFailure(error);
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby="confirm-delete-title" maxWidth="sm">
      <DialogTitle id="confirm-delete-title">{title}</DialogTitle>
      <DialogContent>
        <DialogContentText component="div">{children}</DialogContentText>
        {failure ? (
          <Box sx={{ mt: 2 }} data-testid="delete-failure">
            <ProblemAlert
              error={failure}
              context={blocked ? `${failureContext} was refused` : `${failureContext} failed`}
            />
          </Box>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button ref={closeButton} onClick={onClose} disabled={busy} autoFocus>
          {blocked ? 'Close' : 'Cancel'}
        </Button>
        {blocked ? null : (
          <Button variant="contained" color="error" onClick={() => void confirm()} loading={busy}>
            {confirmLabel}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
