import { useState } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import VerifiedUserIcon from '@mui/icons-material/VerifiedUser';
import { auditLogApi } from '../../api/endpoints.js';
import type { AuditChainVerdictDto, AuditChainVerification } from '../../api/types.js';
import { ProblemAlert } from '../../components/ProblemAlert.js';
import { useApiClient } from '../../session/session-context.js';

function verdictSummary(verdict: AuditChainVerdictDto): string {
  const removed = verdict.removedByPolicy > 0 ? `, ${verdict.removedByPolicy} removed by retention` : '';
  const checkpoint = verdict.lastCheckpoint
    ? `last checkpoint at entry place ${verdict.lastCheckpoint.seq}, signed ${verdict.lastCheckpoint.signedAt}`
    : 'no checkpoint yet';
  return `${verdict.entries} entries checked${removed}; ${verdict.checkpoints} signed checkpoints, ${checkpoint}.`;
}

function VerdictAlert({ verdict }: { verdict: AuditChainVerdictDto }) {
  if (verdict.intact) {
    return (
      <Alert severity="success" data-testid={`audit-verdict-${verdict.tenant}`}>
        <AlertTitle>{verdict.tenant}: intact</AlertTitle>
        {verdictSummary(verdict)}
      </Alert>
    );
  }
  const broken = verdict.broken!;
  return (
    <Alert severity="error" data-testid={`audit-verdict-${verdict.tenant}`}>
      <AlertTitle>
        {verdict.tenant}: {broken.kind} at place {broken.seq}
        {broken.entryId === undefined ? '' : ` (entry ${broken.entryId})`}
      </AlertTitle>
      {broken.message} {verdict.entries} entries checked before it.
    </Alert>
  );
}

/**
 * Verifies the tamper evidence of the trail shown (one tenant, or every tenant's) and shows the verdict in a
 * dialog: "intact", or the first broken link and what happened there (docs/AUDIT-CHAIN.md).
 */
export function AuditVerifyButton({ tenant }: { tenant: string }) {
  const client = useApiClient();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<AuditChainVerification | undefined>();
  const [error, setError] = useState<unknown>();

  const verify = async () => {
    setBusy(true);
    setError(undefined);
    setResult(undefined);
    setOpen(true);
    try {
      setResult(await auditLogApi.verify(client, tenant));
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        variant="outlined"
        startIcon={<VerifiedUserIcon />}
        loading={busy}
        loadingPosition="start"
        onClick={() => void verify()}
      >
        Verify
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        aria-labelledby="audit-verify-title"
        maxWidth="md"
        fullWidth
      >
        <DialogTitle id="audit-verify-title">Tamper evidence</DialogTitle>
        <DialogContent>
          <div role="status" aria-live="polite" aria-busy={busy}>
            {busy ? <Typography>Verifying the hash chain…</Typography> : null}
            {result ? (
              <>
                <Typography sx={{ mb: 2 }}>
                  {result.intact
                    ? 'Intact: every entry, removal record and checkpoint checks out.'
                    : 'Not intact: the first broken link is named below.'}
                </Typography>
                {result.items.map((verdict) => (
                  <VerdictAlert key={verdict.tenant} verdict={verdict} />
                ))}
                <Typography variant="caption" component="p" sx={{ mt: 2, wordBreak: 'break-all' }}>
                  Signed with the public key {result.publicKey}
                </Typography>
              </>
            ) : null}
          </div>
          {error ? (
            <ProblemAlert error={error} context="Verifying the audit log" onRetry={() => void verify()} />
          ) : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>Close</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
