import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import type { AppRegistrationWithSecret } from '../../../api/types.js';
import { CopyButton } from '../../../components/CopyButton.js';
import { MONOSPACE_FONT } from '../../../theme/theme.js';

function CredentialField({ label, value, copyLabel }: { label: string; value: string; copyLabel: string }) {
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

export interface SecretRevealDialogProps {
  credentials: AppRegistrationWithSecret;
  /** "created" or "rotated", for the title. */
  reason: 'created' | 'rotated';
  onClose: () => void;
}

/** The only time a client secret is visible: Gatehouse keeps just its hash. */
export function SecretRevealDialog({ credentials, reason, onClose }: SecretRevealDialogProps) {
  const { registration, clientSecret } = credentials;
  return (
    <Dialog
      open
      onClose={(_event, closeReason) => {
        // A stray click beside the dialog must not throw away the only copy of the secret.
        if (closeReason !== 'backdropClick') onClose();
      }}
      aria-labelledby="secret-dialog-title"
      fullWidth
      maxWidth="sm"
    >
      <DialogTitle id="secret-dialog-title">
        {reason === 'created'
          ? `Registration “${registration.name}” created`
          : `New secret for “${registration.name}”`}
      </DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 2 }}>
          <AlertTitle>Copy the client secret now</AlertTitle>
          It is shown only this once. Gatehouse keeps only a hash of it; if it is lost, rotate the secret to
          get a new one.
        </Alert>
        <CredentialField label="Client ID" value={registration.clientId} copyLabel="Copy client ID" />
        <CredentialField label="Client secret" value={clientSecret} copyLabel="Copy client secret" />
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          Use them with the client-credentials grant at <code>/oauth2/token</code>.
          {reason === 'rotated' ? ' The previous secret no longer works.' : ''}
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
