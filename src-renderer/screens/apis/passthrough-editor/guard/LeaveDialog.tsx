import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';

export interface LeaveDialogProps {
  open: boolean;
  onLeave: () => void;
  onStay: () => void;
}

/** Asked before a navigation would drop unsaved changes; staying is the default. */
export function LeaveDialog({ open, onLeave, onStay }: LeaveDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={onStay}
      aria-labelledby="leave-dialog-title"
      aria-describedby="leave-dialog-text"
    >
      <DialogTitle id="leave-dialog-title">Leave without saving?</DialogTitle>
      <DialogContent>
        <DialogContentText id="leave-dialog-text">
          The Passthrough configuration has unsaved changes. Leaving this page discards them.
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onStay} autoFocus>
          Stay
        </Button>
        <Button color="error" variant="contained" onClick={onLeave}>
          Leave and discard
        </Button>
      </DialogActions>
    </Dialog>
  );
}
