import { useId, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { CopyButton } from './CopyButton.js';
import { MONOSPACE_FONT } from '../theme/theme.js';

/** One value the dialog shows, with its copy button. */
export interface RevealedValue {
  label: string;
  value: string;
  copyLabel: string;
}

export interface RevealOnceDialogProps {
  title: string;
  /** The warning's heading: what to copy now. */
  warningTitle: string;
  /** What Gatehouse keeps instead, and what to do if the value is lost. */
  warning: ReactNode;
  values: RevealedValue[];
  /** How callers use the values. */
  usage: ReactNode;
  onClose: () => void;
}

function RevealedField({ label, value, copyLabel }: RevealedValue) {
  return (
    <Box sx={{ mb: 2 }}>
      <Typography variant="subtitle2" component="div">
        {label}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Box
          component="output"
          aria-label={label}
          sx={{
            fontFamily: MONOSPACE_FONT,
            bgcolor: 'action.hover',
            px: 1.5,
            py: 1,
            borderRadius: 1,
            wordBreak: 'break-all',
            flexGrow: 1,
          }}
        >
          {value}
        </Box>
        <CopyButton text={value} label={copyLabel} />
      </Box>
    </Box>
  );
}

/** The only time a credential (an API key, a client secret) is visible: Gatehouse keeps a digest of it. */
export function RevealOnceDialog({
  title,
  warningTitle,
  warning,
  values,
  usage,
  onClose,
}: RevealOnceDialogProps) {
  const titleId = useId();
  return (
    <Dialog
      open
      onClose={(_event, reason) => {
        // A stray click beside the dialog must not throw away the only copy of the value.
        if (reason !== 'backdropClick') onClose();
      }}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="sm"
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 2 }}>
          <AlertTitle>{warningTitle}</AlertTitle>
          {warning}
        </Alert>
        {values.map((revealed) => (
          <RevealedField key={revealed.label} {...revealed} />
        ))}
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {usage}
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          Done
        </Button>
      </DialogActions>
    </Dialog>
  );
}
