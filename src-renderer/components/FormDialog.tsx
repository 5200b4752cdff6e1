import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog, { type DialogProps } from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { ProblemAlert } from './ProblemAlert.js';

export interface FormDialogProps {
  /** The title's element id, which names the dialog. */
  titleId: string;
  title: ReactNode;
  maxWidth: DialogProps['maxWidth'];
  submitLabel: string;
  /** While saving, the dialog cannot be closed. */
  saving: boolean;
  /** A failure that no field shows, shown below the fields. */
  failure?: unknown;
  /** What failed, e.g. "Saving the environment failed". */
  failureContext?: string;
  onSubmit: () => void;
  onClose: () => void;
  children: ReactNode;
}

/** A modal form with Cancel and a submit button; the browser's own validation is off. */
export function FormDialog({
  titleId,
  title,
  maxWidth,
  submitLabel,
  saving,
  failure,
  failureContext,
  onSubmit,
  onClose,
  children,
}: FormDialogProps) {
  return (
    <Dialog
      open
      onClose={saving ? undefined : onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth={maxWidth}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
        noValidate
      >
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>
          {children}
          {failure ? (
            <Box sx={{ mt: 2 }}>
              <ProblemAlert error={failure} context={failureContext} />
            </Box>
          ) : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" loading={saving}>
            {submitLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
