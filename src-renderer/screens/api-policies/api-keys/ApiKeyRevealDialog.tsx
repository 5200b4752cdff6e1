import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import type { CreatedApiKey, Policy } from '../../../api/types.js';
import { CopyButton } from '../../../components/CopyButton.js';
import { MONOSPACE_FONT } from '../../../theme/theme.js';

export interface ApiKeyRevealDialogProps {
  created: CreatedApiKey;
  /** The policies it may be sent to, for the header names callers use. */
  policies: Policy[];
  onClose: () => void;
}

function headerNamesFor(created: CreatedApiKey, policies: Policy[]): string[] {
  const relevant = created.apiKey.policyIds.length
    ? policies.filter((policy) => created.apiKey.policyIds.includes(policy.id))
    : policies;
  const names = relevant.flatMap((policy) =>
    policy.grants.flatMap((grant) => (grant.type === 'apiKey' ? [grant.headerName] : [])),
  );
  return [...new Set(names)];
}

/** The only time an API key is visible: Gatehouse keeps its first characters and a digest. */
export function ApiKeyRevealDialog({ created, policies, onClose }: ApiKeyRevealDialogProps) {
  const { apiKey, key } = created;
  const headers = headerNamesFor(created, policies);
  return (
    <Dialog
      open
      onClose={(_event, reason) => {
        // A stray click beside the dialog must not throw away the only copy of the key.
        if (reason !== 'backdropClick') onClose();
      }}
      aria-labelledby="api-key-reveal-title"
      fullWidth
      maxWidth="sm"
    >
      <DialogTitle id="api-key-reveal-title">API key “{apiKey.name}” created</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 2 }}>
          <AlertTitle>Copy the key now</AlertTitle>
          It is shown only this once. Gatehouse keeps only its first characters ({apiKey.prefix}…) and a
          digest; if it is lost, revoke it and create another.
        </Alert>
        <Typography variant="subtitle2" component="div">
          API key
        </Typography>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 2 }}>
          <Box
            component="output"
            aria-label="API key"
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
            {key}
          </Box>
          <CopyButton text={key} label="Copy API key" />
        </Box>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {headers.length > 0
            ? `Callers send it in the ${headers.join(' or ')} header.`
            : 'Callers send it in the header named by an API-key grant of a policy.'}
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
